/**
 * Journey evaluator latency, on the embedded parts and, when the environment names them, on the
 * real ones (Kafka, PostgreSQL, Redis; ClickHouse when CLICKHOUSE_URL, else chDB), each run
 * namespaced like the tests' (tools/bench/parts.ts): the time from a position published on positions.v1 to the flag change it causes stored. The
 * evaluator publishes a flag's events.v1 message (while inserting it into ClickHouse) only after the
 * PostgreSQL transaction that stores the flag committed, so the moment the event arrives on
 * events.v1 bounds "stored" from above; it is also what the dispatchers' live feed sees.
 *
 * Load: DEVICES trucks, each on its own active journey along the seeded Northern Corridor (the
 * route as start() seeds it: ~865 km, 2 km wide), published at each of RATES positions per second
 * (for SECONDS[rate] seconds, in ticks of TICK_MS) in three phases of whole ON/OFF cycles per truck
 * (so every flag a phase opens it also clears). Fixes are 30 s apart in fix time. A detouring
 * truck alternates ON fixes on the line with OFF fixes at least 2.75 km from the whole route
 * (tools/bench/journey-trucks.ts, whose test holds the expected flag changes against the
 * evaluator), so it opens an off-corridor flag on its 5th OFF fix (at least 3 fixes and 2 minutes beyond
 * width + 500 m) and clears it on its next ON fix. Phase "heavy": every truck detours (about one fix in ten changes a flag); phase "typical":
 * one truck in ten does (about one fix in a hundred). Phase "seal": no truck detours; one truck in
 * ten carries an electronic seal (its positions as the JT701 decoder writes them: `lock`, and on an
 * opening the `unlock` alarm with sealEvent `unlocked`) that is opened on the 9th fix of every 12 and
 * locked again on the next, so each opening outside a permitted place of the route opens a
 * sealBreach flag (about one fix in 120); its latency is set against the off-corridor flags of
 * "typical" (`seal_to_typical_p50_ratio`), the issue's "within the flag latency of the other kinds".
 * Figures are `<parts>.<rate>.<phase>.<figure>`, with the load average at the start and end of each phase.
 */
import { randomUUID } from 'node:crypto';
import { PositionMessage, Topics, positionId, type EventMessage } from '@corridor/contracts';
import { createLogger } from '@corridor/platform';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import type { AdapterKind } from '@corridor/platform/testing/test-adapters';
import { build } from '@corridor/journey/app';
import { buildRouteIndex } from '@corridor/journey/corridor/route-index';
import { corridorRouteOf } from '@corridor/journey/routes/corridor-route';
import { sealPlace } from '@corridor/journey/detectors/seal-breach';
import { changesFlag, DEVICES, FIX_INTERVAL_MS, isOff, OFF, ON, PHASES, RATES, SECONDS, truckPoint } from '../journey-trucks';
import { benchAdapters, benchKinds, load1m, partsOf } from '../parts';
import { quantile, round } from '../stats';

/** Ceiling of the wait for the last flag changes after publishing (a slow run records what arrived). */
const DRAIN_CEILING_MS = 120_000;
const TICK_MS = 50;
/** In phase "seal": the fix of each ON/OFF-length cycle on which a sealed truck's seal is opened (locked again on the next). */
const SEAL_OPEN_AT = 8;

export default async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {};
  const setups: string[] = [];
  for (const kind of await benchKinds()) {
    const { parts, setup, results } = await runOn(kind);
    setups.push(`${kind}: ${parts}`);
    figures.setup = setup;
    for (const [k, v] of Object.entries(results)) figures[`${kind}.${k}`] = v;
  }
  figures.setup = `${String(figures.setup)}; ${RATES.map((r) => `${r} positions/s for ${SECONDS[r]} s per phase`).join(', ')}; ${setups.join('; ')}`;
  return figures;
}

async function runOn(kind: AdapterKind): Promise<{ parts: string; setup: string; results: Record<string, number> }> {
  const logger = createLogger('bench', 'error');
  const adapters = await benchAdapters(kind);
  const svc = await build({ ...adapters, logger, identitySecret: TEST_IDENTITY_SECRET }, { sweepIntervalMs: 0 });
  try {
    await svc.start();
    const row = (await svc.routes.list({ keyword: 'northern-corridor', limit: 1, offset: 0 }))[0]!;
    const index = buildRouteIndex(corridorRouteOf(row));
    const t0 = Date.parse('2026-04-01T00:00:00Z');
    const admin = { userId: 1, email: 'bench@corridor', name: 'bench', roles: ['admin' as const], companyId: null };
    for (let d = 1; d <= DEVICES; d++) {
      await svc.journeys.create(
        {
          deviceId: d,
          truckPlate: null,
          companyId: null,
          routeId: row.id,
          shipmentRef: null,
          cargoRef: null,
          plannedDeparture: new Date(t0).toISOString(),
          plannedArrival: null,
          origin: null,
          destination: null,
          attributes: {},
        },
        admin,
      );
    }
    const pointOf = (d: number, n: number, off: boolean) => truckPoint(index, d, n, off);
    const timeOf = (d: number, n: number) => new Date(t0 + n * FIX_INTERVAL_MS + d);
    const fixOf = (d: number, n: number, detouring: boolean, sealed = false): PositionMessage => {
      const off = detouring && isOff(n);
      const [lon, lat] = pointOf(d, n, off);
      const time = timeOf(d, n);
      const opened = sealed && n % (ON + OFF) === SEAL_OPEN_AT;
      const seal = sealed
        ? {
            protocol: 'jt701',
            alarm: opened ? 'unlock' : null,
            attributes: { lock: !opened, ropeInserted: true, ...(opened ? { sealEvent: 'unlocked' } : {}) },
          }
        : { protocol: 'bench' };
      return PositionMessage.parse({
        id: positionId(d, time),
        deviceId: d,
        uniqueId: `bench-${d}`,
        fixTime: time.toISOString(),
        serverTime: new Date().toISOString(),
        valid: true,
        latitude: lat,
        longitude: lon,
        speed: 45 / 1.852,
        course: 0,
        ...seal,
      });
    };

    const published = new Map<number, number>();
    let latencies: number[] = [];
    /** flag type of each latency, in the same order */
    let flagTypes: string[] = [];
    /** position ids of the fixes whose flag changes arrived */
    let flagged = new Set<number>();
    let lastEventAt = 0;
    let started = 0;
    const observer = await adapters.bus.subscribe({
      groupId: `bench-observer-${randomUUID().slice(0, 8)}`,
      topics: [Topics.events],
      fromBeginning: true,
      handler: async (msgs) => {
        const now = performance.now();
        for (const m of msgs) {
          const e = JSON.parse(m.value) as EventMessage;
          if (e.type === 'journeyStarted') started++;
          const sent = e.positionId && e.type.startsWith('journeyFlag') ? published.get(e.positionId) : undefined;
          if (sent !== undefined) {
            latencies.push(now - sent);
            flagTypes.push(String(e.attributes.flagType));
            flagged.add(e.positionId!);
          }
        }
        lastEventAt = now;
      },
    });

    // warm-up: every truck's first fix activates its journey (and loads the route index)
    let detourEvery = 1;
    let sealEvery = 0;
    for (const rate of RATES)
      if ((rate * SECONDS[rate]!) % (DEVICES * (ON + OFF)) !== 0) throw new Error('each phase must give every truck whole ON/OFF cycles');
    const detours = (d: number) => detourEvery > 0 && d % detourEvery === 0;
    const sealed = (d: number) => sealEvery > 0 && d % sealEvery === 0;
    await adapters.bus.publish(
      Topics.positions,
      Array.from({ length: DEVICES }, (_, i) => ({ key: String(i + 1), value: fixOf(i + 1, 0, false) })),
    );
    const warm = performance.now();
    while (started < DEVICES && performance.now() - warm < DRAIN_CEILING_MS) await new Promise((r) => setTimeout(r, 20));

    const fixCount = new Array<number>(DEVICES + 1).fill(1);
    const figures: Record<string, number> = {};
    for (const rate of RATES)
      for (const { name, detourEvery: every, sealEvery: sealsEvery } of PHASES) {
        const phase = `${rate}.${name}`;
        figures[`${phase}.load_start`] = load1m();
        detourEvery = every;
        sealEvery = sealsEvery;
        latencies = [];
        flagTypes = [];
        flagged = new Set();
        const firstFix = fixCount.slice();
        const perTick = Math.round((rate * TICK_MS) / 1000);
        const ticks = Math.round((SECONDS[rate]! * 1000) / TICK_MS);
        let next = 0;
        const begin = performance.now();
        for (let tick = 0; tick < ticks; tick++) {
          const due = begin + tick * TICK_MS;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const batch: PositionMessage[] = [];
          for (let k = 0; k < perTick; k++) {
            const d = (next++ % DEVICES) + 1;
            batch.push(fixOf(d, fixCount[d]!++, detours(d), sealed(d)));
          }
          const sentAt = performance.now();
          for (const p of batch) published.set(p.id, sentAt);
          await adapters.bus.publish(
            Topics.positions,
            batch.map((p) => ({ key: String(p.deviceId), value: p })),
          );
        }
        const publishedFor = (performance.now() - begin) / 1000;
        // per detouring truck: an opening on the 5th fix of each OFF run, a clearing on the first ON fix after it
        const expectedIds: number[] = [];
        let breaches = 0;
        for (let d = 1; d <= DEVICES; d++) {
          for (let n = firstFix[d]!; n < fixCount[d]!; n++) if (detours(d) && changesFlag(n)) expectedIds.push(positionId(d, timeOf(d, n)));
          // an opening raises a breach unless it happens in a permitted place (origin, destination, border post, depot)
          for (let n = firstFix[d]!; n < fixCount[d]!; n++)
            if (sealed(d) && n % (ON + OFF) === SEAL_OPEN_AT && !sealPlace(index, pointOf(d, n, false)).permitted) breaches++;
        }
        const expected = expectedIds.length + breaches;
        const drainStart = performance.now();
        while (latencies.length < expected && performance.now() - drainStart < DRAIN_CEILING_MS)
          await new Promise((r) => setTimeout(r, 20));
        const sorted = latencies.slice().sort((a, b) => a - b);
        Object.assign(figures, {
          [`${phase}.positions`]: next,
          [`${phase}.positions_per_s`]: Math.round(next / publishedFor),
          [`${phase}.flag_changes`]: latencies.length,
          [`${phase}.flag_changes_expected`]: expected,
          // off-corridor changes expected on a fix that caused none (a seal breach is counted, not placed)
          [`${phase}.off_corridor_changes_missing`]: expectedIds.filter((id) => !flagged.has(id)).length,
          ...(name === 'seal' ? { [`${phase}.seal_breaches`]: flagTypes.filter((t) => t === 'sealBreach').length } : {}),
          [`${phase}.latency_p50_ms`]: round(quantile(sorted, 0.5)),
          [`${phase}.latency_p90_ms`]: round(quantile(sorted, 0.9)),
          [`${phase}.latency_p99_ms`]: round(quantile(sorted, 0.99)),
          [`${phase}.latency_max_ms`]: round(sorted[sorted.length - 1] ?? NaN),
          [`${phase}.drain_after_last_publish_ms`]: Math.round(Math.max(0, lastEventAt - drainStart)),
          [`${phase}.load_end`]: load1m(),
        });
      }
    await observer.stop();
    for (const rate of RATES) {
      figures[`${rate}.seal_to_typical_p50_ratio`] = round(
        figures[`${rate}.seal.latency_p50_ms`]! / figures[`${rate}.typical.latency_p50_ms`]!,
      );
      figures[`${rate}.seal_to_typical_p99_ratio`] = round(
        figures[`${rate}.seal.latency_p99_ms`]! / figures[`${rate}.typical.latency_p99_ms`]!,
      );
    }
    return {
      parts: partsOf(adapters),
      setup: `${DEVICES} active journeys on the seeded Northern Corridor (${index.coordinates.length} vertices, ${Math.round(index.lengthM / 1000)} km)`,
      results: figures,
    };
  } finally {
    await svc.close();
    await adapters.close();
  }
}
