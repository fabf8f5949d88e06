/**
 * The embedded stack's main thread at saturation (issue 28): each cut of this suite measured alone
 * against the code it replaced, in one run, alternated round by round in this process (the code of
 * before is git's, at BEFORE_REV, imported beside today's: code-before.ts). CPU of this thread
 * (process.threadCpuUsage) per position, medians of ROUNDS rounds per way.
 * - `consumer`: GROUPS consumer groups (consumeValidated on PositionMessage, handlers that do
 *   nothing, as the stack's five readers of positions.v1) reading POSITIONS positions a producer
 *   checked (publishValidated: JSON.parse alone on this side); before, the value read was kept in a
 *   WeakMap of WeakMaps keyed by the message, now on the message.
 * - `observatory`: the geofence observatory's tracker (ObservatoryTracker.handle, a memory cache,
 *   facts written nowhere) on TRUCKS trucks driving Webuye to Malaba, batches of BATCH positions of
 *   many trucks; before, every device's state was parsed from the cache each batch and `track` made
 *   four named closures per fix.
 */
import { PositionMessage, Topics, positionId } from '@corridor/contracts';
import { MemoryBus, consumeValidated, createLogger, publishValidated, type Bus, type Cache } from '@corridor/platform';
import { MemoryCache } from '@corridor/platform/adapters/cache-memory';
import { ObservatoryTracker } from '@corridor/geofence/observatory/observatory-tracker';
import { seededFences, webuyeToMalaba } from '@corridor/geofence/observatory/track-builder';
import { importBefore } from '../code-before';
import { load1m } from '../parts';
import { readAllPositions } from '../position-readers';
import { gt06Position } from '../samples/gt06-positions';
import { median, round } from '../stats';

/** main before this suite's cuts (the quiet round of bench/results/traccar-embedded-quiet.json ran on it). */
const BEFORE_REV = process.env.BEFORE_REV ?? '1a3765a246d8c2bb446e36119eab5ae395687fe4';
const ROUNDS = Number(process.env.MAIN_THREAD_ROUNDS ?? 8);
const GROUPS = 5;
const POSITIONS = Number(process.env.MAIN_THREAD_POSITIONS ?? 12_000);
const TRUCKS = 200;
const BATCH = 200;
const T0 = Date.UTC(2026, 0, 5, 6);

type Way = 'before' | 'after';
const cpuUs = (): number => {
  const c = process.threadCpuUsage();
  return c.user + c.system;
};

type Consume = typeof consumeValidated;

async function consumerRound(consume: Consume): Promise<number> {
  const bus = new MemoryBus(12);
  await bus.ensureTopics([{ name: Topics.positions, partitions: 12 }]);
  for (let i = 0; i < POSITIONS; i += 4) {
    const messages = Array.from({ length: 4 }, (_, j) => gt06Position(i + j)).map((p) => ({ key: String(p.deviceId), value: p }));
    await publishValidated(bus as Bus, Topics.positions, PositionMessage, messages);
  }
  const used = await readAllPositions(bus, GROUPS, POSITIONS, consume);
  await bus.close();
  return used;
}

type Tracker = typeof ObservatoryTracker;

/** TRUCKS trucks on the same drive a minute apart, their fixes interleaved by time, in batches of BATCH. */
function observatoryBatches(): PositionMessage[][] {
  const one = webuyeToMalaba(T0).b.fixes;
  const all: PositionMessage[] = [];
  for (const [k, f] of one.entries())
    for (let d = 1; d <= TRUCKS; d++) {
      const t = new Date(f.t + d * 1000);
      all.push(
        PositionMessage.parse({
          id: positionId(d, t),
          deviceId: d,
          uniqueId: `obs-${d}`,
          protocol: 'gt06',
          fixTime: t.toISOString(),
          serverTime: t.toISOString(),
          valid: true,
          latitude: f.lat,
          longitude: f.lon + (k % 2) * 1e-6,
          speed: f.speedKmh / 1.852,
          course: 0,
        }),
      );
    }
  const out: PositionMessage[][] = [];
  for (let i = 0; i < all.length; i += BATCH) out.push(all.slice(i, i + BATCH));
  return out;
}

async function observatoryRound(Ctor: Tracker, batches: PositionMessage[][]): Promise<{ us: number; facts: number }> {
  const fences = seededFences();
  const cache: Cache = new MemoryCache();
  const t = new Ctor({
    catalog: { version: 1, all: () => fences.values() } as never,
    directory: { lookup: async (ds: readonly { deviceId: number }[]) => new Map(ds.map((d) => [d.deviceId, { companyId: 1 }])) } as never,
    cache,
    bus: {} as Bus,
    write: async () => undefined,
    clock: { now: () => new Date(T0) },
    logger: createLogger('bench', 'silent'),
  });
  let facts = 0;
  let positions = 0;
  const start = cpuUs();
  for (const b of batches) {
    facts += (await t.handle(b)).length;
    positions += b.length;
  }
  return { us: (cpuUs() - start) / positions, facts };
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = { load_start: load1m(), before_rev: BEFORE_REV };
  const consumer = await importBefore<{ consumeValidated: Consume }>(
    BEFORE_REV,
    ['packages/platform/src/consumer.ts'],
    'packages/platform/src/consumer.ts',
  );
  const observatory = await importBefore<{ ObservatoryTracker: Tracker }>(
    BEFORE_REV,
    ['services/geofence/src/observatory/observatory-tracker.ts', 'services/geofence/src/observatory/tracker.ts'],
    'services/geofence/src/observatory/observatory-tracker.ts',
  );
  try {
    const ways = {
      before: { consumer: consumer.mod.consumeValidated, tracker: observatory.mod.ObservatoryTracker },
      after: { consumer: consumeValidated, tracker: ObservatoryTracker },
    };
    const batches = observatoryBatches();
    const cons: Record<Way, number[]> = { before: [], after: [] };
    const obs: Record<Way, number[]> = { before: [], after: [] };
    const facts: Record<Way, number> = { before: 0, after: 0 };
    for (const way of ['before', 'after'] as Way[]) {
      await consumerRound(ways[way].consumer); // warm-up of each
      await observatoryRound(ways[way].tracker, batches);
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const way of (r % 2 ? ['after', 'before'] : ['before', 'after']) as Way[]) {
        cons[way].push(await consumerRound(ways[way].consumer));
        const o = await observatoryRound(ways[way].tracker, batches);
        obs[way].push(o.us);
        facts[way] = o.facts;
      }
    }
    for (const way of ['before', 'after'] as Way[]) {
      out[`consumer.${way}_cpu_us_per_position`] = round(median(cons[way]));
      out[`observatory.${way}_cpu_us_per_position`] = round(median(obs[way]));
      out[`observatory.${way}_facts`] = facts[way];
    }
    out['consumer.after_over_before'] = round(median(cons.after) / median(cons.before));
    out['observatory.after_over_before'] = round(median(obs.after) / median(obs.before));
    out.setup = `consumer: ${GROUPS} groups reading ${POSITIONS} producer-checked GT06 positions on 12 partitions of the in-process bus; observatory: ${TRUCKS} trucks from Webuye to Malaba (${batches.length * BATCH} positions, batches of ${BATCH}); code of before from git ${BEFORE_REV.slice(0, 10)}; ${ROUNDS} rounds per way alternated after a warm-up of each, medians of this thread's CPU`;
  } finally {
    consumer.remove();
    observatory.remove();
  }
  out.load_end = load1m();
  return out;
}
