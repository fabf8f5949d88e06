/**
 * Geofence evaluator latency, on the embedded parts and, when the environment names them, on the
 * real ones (Kafka, PostgreSQL, Redis; ClickHouse when CLICKHOUSE_URL, else chDB), each run
 * namespaced like the tests' (tools/bench/parts.ts): the time from a position published on
 * positions.v1 to its geofence event stored in ClickHouse and PostgreSQL (the evaluator publishes
 * events.v1 only after both inserts resolve, so the moment the event arrives on events.v1 bounds
 * "stored" from above).
 *
 * Load: 1,000 fences (the seed set plus synthetic 300 m circles along a line) and DEVICES trucks,
 * each parked on its own fence and stepping in and out of it every third fix (minimal dwell and
 * exit margin 0), so about a third of the fixes produce an event. Positions are published at each
 * of RATES per second for SECONDS seconds in ticks of TICK_MS, like trackers reporting steadily.
 * Figures are `<parts>.<rate>.<figure>`, with the load average at the start and end of each run.
 */
import { randomUUID } from 'node:crypto';
import { createLogger } from '@corridor/platform';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { PositionMessage, Topics, positionId, type EventMessage } from '@corridor/contracts';
import type { AdapterKind } from '@corridor/platform/testing/test-adapters';
import { build } from '@corridor/geofence/app';
import { formatAreaWkt } from '@corridor/geofence/fences/area-wkt';
import { geofencesRepository } from '@corridor/geofence/geofences/repository';
import { EARTH_RADIUS_M } from '@corridor/geofence/fences/geometry';
import { benchAdapters, benchKinds, load1m, partsOf } from '../parts';
import { quantile, round } from '../stats';

const FENCES = 1000;
const DEVICES = 500;
const RATES = [1000, 5000];
const SECONDS = 10;
const TICK_MS = 50;
const RADIUS_M = 300;
/** Ceiling of the wait for the last events after publishing (a slow run records what arrived). */
const DRAIN_CEILING_MS = 120_000;

export default async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  const setups: string[] = [];
  for (const kind of await benchKinds()) {
    const { parts, results } = await runOn(kind);
    setups.push(`${kind}: ${parts}`);
    for (const [rate, r] of Object.entries(results)) for (const [k, v] of Object.entries(r)) figures[`${kind}.${rate}.${k}`] = v;
  }
  return {
    setup: `${FENCES} fences (300 m circles, BBoxFenceIndex), ${DEVICES} trucks crossing a fence edge every third fix, ${RATES.join(' and ')} positions/s for ${SECONDS} s each; ${setups.join('; ')}`,
    ...figures,
  };
}

async function runOn(kind: AdapterKind): Promise<{ parts: string; results: Record<number, Record<string, number>> }> {
  const logger = createLogger('bench', 'error');
  const adapters = await benchAdapters(kind);
  const svc = await build({ ...adapters, logger, identitySecret: TEST_IDENTITY_SECRET });
  try {
    // synthetic fences 3 km apart on a line across Tanzania, clear of the seed set
    const centres = Array.from({ length: FENCES }, (_, i): [number, number] => [30 + (i % 100) * 0.03, -7 - Math.floor(i / 100) * 0.03]);
    const repo = geofencesRepository(adapters.db.orm);
    for (let i = 0; i < centres.length; i += 250) {
      await repo.insertSeeds(
        centres.slice(i, i + 250).map((center, j) => ({
          name: `bench fence ${i + j}`,
          area: formatAreaWkt({ kind: 'circle', center, radius: RADIUS_M }),
          kind: 'other' as const,
        })),
      );
    }
    await svc.start();

    const published = new Map<number, number>();
    let latencies: number[] = [];
    let lastEventAt = 0;
    const observer = await adapters.bus.subscribe({
      groupId: `bench-observer-${randomUUID().slice(0, 8)}`,
      topics: [Topics.events],
      fromBeginning: true,
      handler: async (msgs) => {
        const now = performance.now();
        for (const m of msgs) {
          const e = JSON.parse(m.value) as EventMessage;
          const sent = e.positionId ? published.get(e.positionId) : undefined;
          if (sent !== undefined) latencies.push(now - sent);
        }
        lastEventAt = now;
      },
    });

    const t0 = Date.parse('2026-04-01T00:00:00Z');
    const fixCount = new Array<number>(DEVICES).fill(0);
    const crossings = () => fixCount.reduce((sum, n) => sum + Math.ceil(n / 3), 0); // every third fix crosses the edge
    const results: Record<number, Record<string, number>> = {};
    for (const rate of RATES) {
      latencies = [];
      const before = crossings();
      const loadStart = load1m();
      const perTick = Math.round((rate * TICK_MS) / 1000);
      const ticks = Math.round((SECONDS * 1000) / TICK_MS);
      let next = 0;
      const started = performance.now();
      for (let tick = 0; tick < ticks; tick++) {
        const due = started + tick * TICK_MS;
        const wait = due - performance.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const batch: PositionMessage[] = [];
        for (let k = 0; k < perTick; k++) {
          const d = next++ % DEVICES;
          const n = fixCount[d]!++;
          const [lon, lat] = centres[d % FENCES]!;
          const north = Math.floor(n / 3) % 2 === 0 ? 0 : 2 * RADIUS_M; // in for three fixes, out for three
          const time = new Date(t0 + n * 10_000);
          batch.push(
            PositionMessage.parse({
              id: positionId(d + 1, time),
              deviceId: d + 1,
              uniqueId: `bench-${d + 1}`,
              protocol: 'bench',
              fixTime: time.toISOString(),
              serverTime: new Date().toISOString(),
              valid: true,
              latitude: lat + (north / EARTH_RADIUS_M) * (180 / Math.PI),
              longitude: lon,
              speed: 0,
              course: 0,
            }),
          );
        }
        const sentAt = performance.now();
        for (const p of batch) published.set(p.id, sentAt);
        await adapters.bus.publish(
          Topics.positions,
          batch.map((p) => ({ key: String(p.deviceId), value: p })),
        );
      }
      const publishedFor = (performance.now() - started) / 1000;
      const expected = crossings() - before;
      const drainStart = performance.now();
      while (latencies.length < expected && performance.now() - drainStart < DRAIN_CEILING_MS) await new Promise((r) => setTimeout(r, 20));
      const sorted = latencies.slice().sort((a, b) => a - b);
      results[rate] = {
        load_start: loadStart,
        positions: next,
        positions_per_s: Math.round(next / publishedFor),
        events: latencies.length,
        events_expected: expected,
        latency_p50_ms: round(quantile(sorted, 0.5)),
        latency_p90_ms: round(quantile(sorted, 0.9)),
        latency_p99_ms: round(quantile(sorted, 0.99)),
        latency_max_ms: round(sorted[sorted.length - 1] ?? NaN),
        drain_after_last_publish_ms: Math.round(Math.max(0, lastEventAt - drainStart)),
        load_end: load1m(),
      };
    }
    await observer.stop();
    return { parts: partsOf(adapters), results };
  } finally {
    await svc.close();
    await adapters.close();
  }
}
