/**
 * What the in-process bus holds after its groups have read everything (bus-memory.ts, Retention):
 * POSITIONS positions (a GT06 fix's fields) published to positions.v1's 12 partitions, read by 5
 * groups that parse each value, as the embedded stack's consumers do; the heap held afterwards
 * (after a full collection), with the retained tail of 1,000 a partition and with nothing dropped
 * (the bus of before), alternated.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MemoryBus } from '@corridor/platform';
import { load1m } from '../parts';
import { median } from '../stats';

const POSITIONS = Number(process.env.BUS_RETENTION_POSITIONS ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

async function once(tail: number): Promise<{ heldMiB: number; retained: number }> {
  const bus = new MemoryBus(12, 10, undefined, undefined, tail);
  await bus.ensureTopics([{ name: 'positions.v1', partitions: 12 }]);
  let handled = 0;
  const subs = await Promise.all(
    Array.from({ length: 5 }, (_, g) =>
      bus.subscribe({
        groupId: `g${g}`,
        topics: ['positions.v1'],
        fromBeginning: true,
        handler: async (batch) => {
          for (const m of batch) JSON.parse(m.value);
          handled += batch.length;
        },
      }),
    ),
  );
  gc();
  const before = process.memoryUsage().heapUsed;
  const fix = {
    fixTime: new Date().toISOString(),
    lat: -1.3,
    lon: 36.8,
    speed: 16.7,
    course: 90,
    altitude: 1600,
    accuracy: 5,
    attributes: { battery: 90, ignition: true },
  };
  for (let i = 0; i < POSITIONS; i += 200) {
    await bus.publish(
      'positions.v1',
      Array.from({ length: 200 }, (_, j) => ({ key: String((i + j) % 200), value: { ...fix, deviceId: String((i + j) % 200), n: i + j } })),
    );
    await new Promise((r) => setImmediate(r));
  }
  // the groups work off what is published: a condition, polled
  while (handled < POSITIONS * 5) await new Promise((r) => setTimeout(r, 20));
  gc();
  const heldMiB = (process.memoryUsage().heapUsed - before) / 2 ** 20;
  const retained = bus.retained('positions.v1');
  await Promise.all(subs.map((s) => s.stop()));
  await bus.close();
  return { heldMiB, retained };
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = { positions: POSITIONS, load_start: load1m() };
  const held: Record<string, number[]> = { tail_1000: [], keep_all: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const way of r % 2 ? ['keep_all', 'tail_1000'] : ['tail_1000', 'keep_all']) {
      const res = await once(way === 'tail_1000' ? 1_000 : Number.MAX_SAFE_INTEGER);
      out[`r${r + 1}.${way}.heap_mib_held`] = Math.round(res.heldMiB);
      out[`r${r + 1}.${way}.retained`] = res.retained;
      held[way]!.push(res.heldMiB);
    }
  }
  out.tail_1000_heap_mib_held_median = Math.round(median(held.tail_1000!));
  out.keep_all_heap_mib_held_median = Math.round(median(held.keep_all!));
  out.keep_all_bytes_per_position = Math.round((median(held.keep_all!) * 2 ** 20) / POSITIONS);
  out.load_end = load1m();
  return out;
}
