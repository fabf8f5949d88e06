import { describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually';
import type { ConsumedMessage } from './bus';
import { MemoryBus } from './bus-memory';

/** The in-process bus drops what every group has read (bus-memory.ts, Retention), and nothing else. */
const TAIL = 100;
const bus = (): MemoryBus => new MemoryBus(1, 10, undefined, undefined, TAIL);
const messages = (from: number, count: number): { key: string; value: { n: number } }[] =>
  Array.from({ length: count }, (_, i) => ({ key: 'k', value: { n: from + i } }));

/** A group's reader that records every value it handled, in order. */
async function reader(b: MemoryBus, groupId: string, opts: { fromBeginning?: boolean; held?: Promise<void> } = {}) {
  const seen: number[] = [];
  const sub = await b.subscribe({
    groupId,
    topics: ['t.v1'],
    fromBeginning: opts.fromBeginning ?? true,
    handler: async (batch: ConsumedMessage[]) => {
      await opts.held;
      for (const m of batch) seen.push((JSON.parse(m.value) as { n: number }).n);
    },
  });
  return { seen, sub };
}

/** Waits until an expectation holds (it throws until then). */
const until = (check: () => void): Promise<boolean> =>
  eventually(String(check), () => {
    check();
    return true;
  });

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

describe('the in-process bus keeps what a group has not read, and drops the rest but a tail', () => {
  it('drops only once every group has read, each group sees every message once in order, offsets go on', async () => {
    const b = bus();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const fast = await reader(b, 'fast');
    const slow = await reader(b, 'slow', { held });
    await b.publish('t.v1', messages(0, 5_000));
    await until(() => expect(fast.seen.length).toBe(5_000));
    expect(b.retained('t.v1')).toBe(5_000); // the slow group has read nothing yet
    release();
    await until(() => expect(slow.seen.length).toBe(5_000));
    await until(() => expect(b.retained('t.v1')).toBeLessThan(1_000 + TAIL));
    expect(b.retained('t.v1')).toBeGreaterThanOrEqual(TAIL);
    expect(fast.seen).toEqual(range(0, 5_000));
    expect(slow.seen).toEqual(range(0, 5_000));
    expect(b.size('t.v1')).toBe(5_000);
    expect(b.lag('fast', 't.v1')).toBe(0);

    // a group that joins now reads from the earliest kept message, at its own offset
    const offsets: string[] = [];
    const late = await b.subscribe({
      groupId: 'late',
      topics: ['t.v1'],
      fromBeginning: true,
      handler: async (batch) => void offsets.push(...batch.map((m) => m.offset)),
    });
    await until(() => expect(offsets.at(-1)).toBe('4999'));
    expect(Number(offsets[0])).toBe(5_000 - b.retained('t.v1'));
    await Promise.all([fast.sub.stop(), slow.sub.stop(), late.stop()]);
    await b.close();
  });

  it('a group with no member keeps its place: nothing it has not read is dropped while it restarts', async () => {
    const b = bus();
    const a = await reader(b, 'a');
    const first = await reader(b, 'b');
    await b.publish('t.v1', messages(0, 2_000));
    await until(() => expect([a.seen.length, first.seen.length]).toEqual([2_000, 2_000]));
    await first.sub.stop();
    await b.publish('t.v1', messages(2_000, 3_000));
    await until(() => expect(a.seen.length).toBe(5_000));
    expect(b.retained('t.v1')).toBeGreaterThanOrEqual(3_000);
    const again = await reader(b, 'b');
    await until(() => expect(again.seen.length).toBe(3_000));
    expect(again.seen).toEqual(range(2_000, 5_000));
    await Promise.all([a.sub.stop(), again.sub.stop()]);
    await b.close();
  });

  it('keeps every message of a compacted topic', async () => {
    const b = bus();
    await b.ensureTopics([{ name: 't.v1', partitions: 1, compacted: true }]);
    const a = await reader(b, 'a');
    await b.publish('t.v1', messages(0, 3_000));
    await until(() => expect(a.seen.length).toBe(3_000));
    expect(b.retained('t.v1')).toBe(3_000);
    await a.sub.stop();
    await b.close();
  });
});
