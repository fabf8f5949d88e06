import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { Analytics } from '@corridor/platform';
import { NativeBlockReader } from './native-blocks';
import { emptyTestAnalytics } from '@corridor/platform/testing/test-adapters';

// CLICKHOUSE_URL's server when set, else this process's chDB (a database of its own)
const variants = [
  { name: process.env.CLICKHOUSE_URL ? 'clickhouse' : 'chdb', create: () => emptyTestAnalytics(`native_${randomUUID().slice(0, 8)}`) },
];

const COLUMNS = { n: 'UInt32', b: 'UInt8', i: 'Int8', w: 'UInt16', x: 'Float64' } as const;
const SQL = `SELECT toUInt32(number) AS n, toUInt8(number % 251) AS b, toInt8(number % 200 - 100) AS i, toUInt16(number * 7 % 65536) AS w,
  number / 3 - 1000 AS x FROM numbers(5000) SETTINGS max_block_size = 777 FORMAT Native`;
const expected = (n: number) => ({ n, b: n % 251, i: (n % 200) - 100, w: (n * 7) % 65536, x: n / 3 - 1000 });

/** Every row of the blocks read from the answer pushed in these pieces. */
function readAll(answer: Buffer, cuts: number[]): ReturnType<typeof expected>[] {
  const reader = new NativeBlockReader(COLUMNS);
  const out: ReturnType<typeof expected>[] = [];
  let from = 0;
  for (const to of [...cuts, answer.length]) {
    reader.push(answer.subarray(from, to));
    from = to;
    for (let b = reader.next(); b; b = reader.next()) {
      const { n, b: u8, i, w, x } = b.columns;
      for (let r = 0; r < b.rows; r++) out.push({ n: n[r]!, b: u8[r]!, i: i[r]!, w: w[r]!, x: x[r]! });
    }
  }
  reader.end();
  return out;
}

describe.each(variants)('Native blocks: $name', ({ create }) => {
  let ch: Analytics;
  let answer: Buffer;
  afterAll(async () => {
    await ch?.close();
  });

  it('reads every block of an answer, pushed whole or cut anywhere (inside counts, names, values)', async () => {
    ch = await create();
    const { stream } = await ch.client.exec({ query: SQL });
    const parts: Buffer[] = [];
    for await (const p of stream as AsyncIterable<Buffer>) parts.push(p);
    answer = Buffer.concat(parts);
    const want = Array.from({ length: 5000 }, (_, n) => expected(n));
    expect(readAll(answer, [])).toEqual(want);
    // every cut point of the first 200 bytes (the first block's counts and column headers), then random cuts
    for (let cut = 1; cut < 200; cut++) expect(readAll(answer, [cut])).toEqual(want);
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let k = 0; k < 20; k++) {
      const cuts = Array.from({ length: 1 + Math.floor(random() * 60) }, () => Math.floor(random() * answer.length)).sort((a, b) => a - b);
      expect(readAll(answer, cuts)).toEqual(want);
    }
    // bytes one at a time
    expect(
      readAll(
        answer,
        Array.from({ length: answer.length - 1 }, (_, i) => i + 1),
      ),
    ).toEqual(want);
  });

  it('refuses an answer whose columns are not the ones asked for, and one that ends inside a block', async () => {
    const other = new NativeBlockReader({ n: 'UInt32', b: 'UInt8', i: 'Int8', w: 'UInt16', x: 'UInt32' });
    other.push(answer);
    expect(() => other.next()).toThrow(/Native column 4 is x Float64, expected x UInt32/);
    const renamed = new NativeBlockReader({ n: 'UInt32', b: 'UInt8', i: 'Int8', z: 'UInt16', x: 'Float64' });
    renamed.push(answer);
    expect(() => renamed.next()).toThrow(/Native column 3 is w UInt16, expected z UInt16/);
    const fewer = new NativeBlockReader({ n: 'UInt32' });
    fewer.push(answer);
    expect(() => fewer.next()).toThrow(/a Native block of 5 columns, expected 1/);
    const cut = new NativeBlockReader(COLUMNS);
    cut.push(answer.subarray(0, answer.length - 3));
    while (cut.next());
    expect(() => cut.end()).toThrow(/an incomplete Native block/);
  });
});
