import { describe, expect, it } from 'vitest';
import { PositionMessage, positionId } from '@corridor/contracts';
import { createLogger, type Bus, type Cache } from '@corridor/platform';
import { MemoryCache } from '@corridor/platform/adapters/cache-memory';
import type { DeviceDirectory } from '../evaluator/device-directory';
import type { FenceCatalog } from '../evaluator/fence-catalog';
import type { ObservatoryFact } from './facts';
import { ObservatoryTracker, observatoryStateKey } from './observatory-tracker';
import { seededFences, ugandaToWebuye, webuyeToMalaba } from './track-builder';
import type { TrackFix } from './tracker';

/**
 * The observatory tracker goes on from the device states it holds in memory (issue 28) and gives
 * the facts and saved states of a tracker that parses every device's state from the cache each
 * batch: an instance made afresh per batch is that tracker.
 */
const HOUR = 3600_000;
const T0 = Date.parse('2026-03-02T06:00:00Z');
const fences = seededFences();
const catalog = { version: 1, all: () => fences.values() } as unknown as FenceCatalog;
const directory = {
  lookup: async (ds: readonly { deviceId: number }[]) => new Map(ds.map((d) => [d.deviceId, { companyId: 100 + d.deviceId }])),
} as unknown as DeviceDirectory;
const logger = createLogger('observatory-tracker-test', 'silent');

const positionsOf = (deviceId: number, fixes: readonly TrackFix[]): PositionMessage[] =>
  fixes.map((f) =>
    PositionMessage.parse({
      id: positionId(deviceId, new Date(f.t)),
      deviceId,
      uniqueId: `obs-${deviceId}`,
      protocol: 'gt06',
      fixTime: new Date(f.t).toISOString(),
      serverTime: new Date(f.t).toISOString(),
      valid: true,
      latitude: f.lat,
      longitude: f.lon,
      speed: f.speedKmh / 1.852,
      course: 0,
    }),
  );

/** Three trucks' fixes interleaved by time, cut into batches of 1 to 40 (a fixed pseudo-random sequence). */
function batches(): PositionMessage[][] {
  const all = [
    ...positionsOf(1, webuyeToMalaba(T0).b.fixes),
    ...positionsOf(2, webuyeToMalaba(T0 + HOUR, { swerve: true }).b.fixes),
    ...positionsOf(3, ugandaToWebuye(T0 + 2 * HOUR).b.fixes),
  ].sort((a, b) => Date.parse(a.fixTime) - Date.parse(b.fixTime) || a.deviceId - b.deviceId);
  const out: PositionMessage[][] = [];
  let seed = 7;
  for (let i = 0; i < all.length;) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const n = 1 + (seed % 40);
    out.push(all.slice(i, i + n));
    i += n;
  }
  return out;
}

interface Run {
  facts: ObservatoryFact[];
  states: (string | null)[];
}

function tracker(cache: Cache, write: (facts: readonly ObservatoryFact[]) => Promise<void>): ObservatoryTracker {
  return new ObservatoryTracker({
    catalog,
    directory,
    cache,
    bus: {} as Bus,
    write: async (facts) => write(facts),
    clock: { now: () => new Date(T0) },
    logger,
  });
}

const statesOf = (cache: Cache): Promise<(string | null)[]> => cache.mget([1, 2, 3].map(observatoryStateKey));

/** Every batch through a tracker made afresh for it: each device's state parsed from the cache every batch. */
async function parsedEachBatch(input: PositionMessage[][]): Promise<Run> {
  const cache = new MemoryCache();
  const facts: ObservatoryFact[] = [];
  for (const b of input) await tracker(cache, async (f) => void facts.push(...f)).handle(b);
  return { facts, states: await statesOf(cache) };
}

describe('observatory tracker with the states it holds', () => {
  const input = batches();

  it('gives the facts and saved states of a tracker that parses every state from the cache', async () => {
    const expected = await parsedEachBatch(input);
    expect(expected.facts.filter((f) => f.kind === 'leg').length).toBeGreaterThanOrEqual(2);
    const cache = new MemoryCache();
    const facts: ObservatoryFact[] = [];
    const t = tracker(cache, async (f) => void facts.push(...f));
    for (const b of input) await t.handle(b);
    expect(facts).toEqual(expected.facts);
    expect(await statesOf(cache)).toEqual(expected.states);
  });

  it('redoes a batch whose facts could not be written from the saved state, not from the one it had advanced', async () => {
    const expected = await parsedEachBatch(input);
    const cache = new MemoryCache();
    const facts: ObservatoryFact[] = [];
    let calls = 0;
    const t = tracker(cache, async (f) => {
      // every fifth write fails once (ClickHouse away): the bus redelivers the batch
      if (++calls % 5 === 0) throw new Error('ClickHouse away');
      facts.push(...f);
    });
    for (const b of input) await t.handle(b).catch(() => t.handle(b));
    expect(calls).toBeGreaterThan(input.length);
    expect(facts).toEqual(expected.facts);
    expect(await statesOf(cache)).toEqual(expected.states);
  });

  it('reads the state another instance saved since (a rebalance), not the one it holds', async () => {
    const expected = await parsedEachBatch(input);
    const cache = new MemoryCache();
    const facts: ObservatoryFact[] = [];
    const [a, b] = [tracker(cache, async (f) => void facts.push(...f)), tracker(cache, async (f) => void facts.push(...f))];
    // the partitions move between the two instances every 3 batches
    for (const [i, batch] of input.entries()) await (Math.floor(i / 3) % 2 ? b : a).handle(batch);
    expect(facts).toEqual(expected.facts);
    expect(await statesOf(cache)).toEqual(expected.states);
  });
});
