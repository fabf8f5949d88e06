/**
 * Where a position's contract check runs on the in-process bus (issue 28: zod was 17 % of the
 * embedded stack's main thread at saturation). GROUPS consumer groups (consumeValidated on
 * PositionMessage, handlers that do nothing) read positions.v1's 12 partitions of the in-process
 * bus; BATCH positions as ingest builds them are published per call, two ways alternated in one run:
 * - `checked`: bus.publish, each position checked by the consumers (once for all groups, before);
 * - `trusted`: publishValidated, checked by the producer (in the stack, an ingest thread) and taken
 *   by the consumers with JSON.parse alone.
 * Figures: CPU µs per position of the producer's publish calls and of the consumers' side (the main
 * thread of the stack), process.threadCpuUsage, medians of ROUNDS rounds of POSITIONS per way.
 */
import { PositionMessage, Topics, positionId } from '@corridor/contracts';
import { MemoryBus, consumeValidated, createLogger, publishValidated, type Bus } from '@corridor/platform';
import { load1m } from '../parts';
import { median, round } from '../stats';

const GROUPS = Number(process.env.TRUSTED_PATH_GROUPS ?? 5);
const POSITIONS = Number(process.env.TRUSTED_PATH_POSITIONS ?? 12_000);
const BATCH = 4;
const ROUNDS = Number(process.env.TRUSTED_PATH_ROUNDS ?? 6);
const T0 = Date.UTC(2026, 0, 5, 6);

const fix = (i: number) => {
  const device = 1 + (i % 200);
  const t = new Date(T0 + Math.floor(i / 200) * 1000).toISOString();
  return {
    id: positionId(device, t),
    deviceId: device,
    uniqueId: String(358_200_000_000_000 + device),
    protocol: 'gt06',
    fixTime: t,
    deviceTime: t,
    serverTime: t,
    valid: true,
    latitude: -1.3 - device / 1000,
    longitude: 36.8 + i / 1e6,
    speed: 29.15,
    course: 87,
    satellites: 9,
    ignition: true,
    odometer: i * 15,
    rawFrameId: `gt06:${device}:${i}`,
    attributes: { sat: 9, ignition: true, motion: true, distance: 15, totalDistance: i * 15, rssi: 4 },
  };
};

type Way = 'checked' | 'trusted';

async function once(way: Way): Promise<{ producer: number; consumers: number }> {
  const bus = new MemoryBus(12);
  await bus.ensureTopics([{ name: Topics.positions, partitions: 12 }]);
  const positions = Array.from({ length: POSITIONS }, (_, i) => fix(i));
  const cpu = process.threadCpuUsage();
  for (let i = 0; i < POSITIONS; i += BATCH) {
    const messages = positions.slice(i, i + BATCH).map((p) => ({ key: String(p.deviceId), value: p }));
    if (way === 'trusted') await publishValidated(bus as Bus, Topics.positions, PositionMessage, messages);
    else await bus.publish(Topics.positions, messages);
  }
  const produced = process.threadCpuUsage(cpu);
  const logger = createLogger('bench', 'silent');
  let handled = 0;
  const start = process.threadCpuUsage();
  const subs = await Promise.all(
    Array.from({ length: GROUPS }, (_, g) =>
      consumeValidated({
        bus,
        logger,
        groupId: `g${g}`,
        topic: Topics.positions,
        schema: PositionMessage,
        handle: async (ms) => void (handled += ms.length),
      }),
    ),
  );
  while (handled < POSITIONS * GROUPS) await new Promise((r) => setImmediate(r));
  const consumed = process.threadCpuUsage(start);
  await Promise.all(subs.map((s) => s.stop()));
  await bus.close();
  return { producer: (produced.user + produced.system) / POSITIONS, consumers: (consumed.user + consumed.system) / POSITIONS };
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = { load_start: load1m() };
  const ways: Record<Way, { producer: number[]; consumers: number[] }> = {
    checked: { producer: [], consumers: [] },
    trusted: { producer: [], consumers: [] },
  };
  await once('trusted'); // warm-up
  await once('checked');
  for (let r = 0; r < ROUNDS; r++) {
    for (const way of (r % 2 ? ['trusted', 'checked'] : ['checked', 'trusted']) as Way[]) {
      const x = await once(way);
      ways[way].producer.push(x.producer);
      ways[way].consumers.push(x.consumers);
    }
  }
  for (const way of ['checked', 'trusted'] as Way[]) {
    out[`${way}.producer_cpu_us_per_position`] = round(median(ways[way].producer));
    out[`${way}.consumers_cpu_us_per_position`] = round(median(ways[way].consumers));
  }
  out['trusted_over_checked.consumers_cpu'] = round(median(ways.trusted.consumers) / median(ways.checked.consumers));
  out['trusted_over_checked.total_cpu'] = round(
    (median(ways.trusted.consumers) + median(ways.trusted.producer)) / (median(ways.checked.consumers) + median(ways.checked.producer)),
  );
  out.setup = `${GROUPS} consumer groups (consumeValidated, PositionMessage, handlers that do nothing) on 12 partitions of the in-process bus; ${POSITIONS} GT06 positions published ${BATCH} per call, then consumed; ${ROUNDS} rounds per way alternated after a warm-up of each, medians; one thread (in the stack the producer is an ingest thread, the consumers the main thread)`;
  out.load_end = load1m();
  return out;
}
