/**
 * Where a position's contract check runs on the in-process bus (issue 28: zod was 17 % of the
 * embedded stack's main thread at saturation). GROUPS consumer groups (consumeValidated on
 * PositionMessage, handlers that do nothing) read positions.v1's 12 partitions of the in-process
 * bus; BATCH positions as ingest builds them are published per call, two ways alternated in one run:
 * - `checked`: bus.publish, each position checked by the consumers (once for all groups, before);
 * - `trusted`: publishValidated, checked by the producer (in the stack, an ingest thread) and taken
 *   by the consumers with JSON.parse alone;
 * - `hand`: the same, the producer's check contracts' isParsedPositionMessage (zod only for what it
 *   does not accept: nothing here), as ingest publishes since issue 28's saturation pass.
 * The positions carry every field, as ingest's toPositionMessage builds them.
 * Figures: CPU µs per position of the producer's publish calls and of the consumers' side (the main
 * thread of the stack), process.threadCpuUsage, medians of ROUNDS rounds of POSITIONS per way.
 */
import { PositionMessage, Topics, isParsedPositionMessage } from '@corridor/contracts';
import { MemoryBus, publishValidated, type Bus } from '@corridor/platform';
import { load1m } from '../parts';
import { readAllPositions } from '../position-readers';
import { gt06Position } from '../samples/gt06-positions';
import { median, round } from '../stats';

const GROUPS = Number(process.env.TRUSTED_PATH_GROUPS ?? 5);
const POSITIONS = Number(process.env.TRUSTED_PATH_POSITIONS ?? 12_000);
const BATCH = 4;
const ROUNDS = Number(process.env.TRUSTED_PATH_ROUNDS ?? 6);

type Way = 'checked' | 'trusted' | 'hand';
const WAYS: Way[] = ['checked', 'trusted', 'hand'];

/** Every field present, as ingest's toPositionMessage builds a position. */
const built = (i: number) => ({
  altitude: null,
  accuracy: null,
  hdop: null,
  power: null,
  battery: null,
  alarm: null,
  crcValid: true,
  ...gt06Position(i),
});

async function once(way: Way): Promise<{ producer: number; consumers: number }> {
  const bus = new MemoryBus(12);
  await bus.ensureTopics([{ name: Topics.positions, partitions: 12 }]);
  const positions = Array.from({ length: POSITIONS }, (_, i) => built(i));
  const cpu = process.threadCpuUsage();
  for (let i = 0; i < POSITIONS; i += BATCH) {
    const messages = positions.slice(i, i + BATCH).map((p) => ({ key: String(p.deviceId), value: p }));
    if (way === 'trusted') await publishValidated(bus as Bus, Topics.positions, PositionMessage, messages);
    else if (way === 'hand') await publishValidated(bus as Bus, Topics.positions, PositionMessage, messages, isParsedPositionMessage);
    else await bus.publish(Topics.positions, messages);
  }
  const produced = process.threadCpuUsage(cpu);
  const consumers = await readAllPositions(bus, GROUPS, POSITIONS);
  await bus.close();
  return { producer: (produced.user + produced.system) / POSITIONS, consumers };
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = { load_start: load1m() };
  const ways = Object.fromEntries(WAYS.map((w) => [w, { producer: [] as number[], consumers: [] as number[] }])) as Record<
    Way,
    { producer: number[]; consumers: number[] }
  >;
  for (const way of WAYS) await once(way); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const way of r % 2 ? [...WAYS].reverse() : WAYS) {
      const x = await once(way);
      ways[way].producer.push(x.producer);
      ways[way].consumers.push(x.consumers);
    }
  }
  for (const way of WAYS) {
    out[`${way}.producer_cpu_us_per_position`] = round(median(ways[way].producer));
    out[`${way}.consumers_cpu_us_per_position`] = round(median(ways[way].consumers));
  }
  out['trusted_over_checked.consumers_cpu'] = round(median(ways.trusted.consumers) / median(ways.checked.consumers));
  out['trusted_over_checked.total_cpu'] = round(
    (median(ways.trusted.consumers) + median(ways.trusted.producer)) / (median(ways.checked.consumers) + median(ways.checked.producer)),
  );
  out['hand_over_trusted.producer_cpu'] = round(median(ways.hand.producer) / median(ways.trusted.producer));
  out['hand_over_trusted.total_cpu'] = round(
    (median(ways.hand.consumers) + median(ways.hand.producer)) / (median(ways.trusted.consumers) + median(ways.trusted.producer)),
  );
  out.setup = `${GROUPS} consumer groups (consumeValidated, PositionMessage, handlers that do nothing) on 12 partitions of the in-process bus; ${POSITIONS} GT06 positions (every field, as ingest builds them) published ${BATCH} per call, then consumed; ${ROUNDS} rounds per way alternated after a warm-up of each, medians; one thread (in the stack the producer is an ingest thread, the consumers the main thread)`;
  out.load_end = load1m();
  return out;
}
