import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Topics, type Journey } from '@corridor/contracts';
import { createLogger, registry, type Identity, type Logger } from '@corridor/platform';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { registerDevices } from '@corridor/platform/testing/registry';
import { asUser, testUsers } from '@corridor/platform/testing/identity';
import type { JourneyService } from '../src/app';
import { routes } from '../src/db/schema';
import type { JourneyFix } from '../src/detectors/flag-change';
import { generateTrack } from '../src/detectors/track-generator';
import { replayJourney } from '../src/detectors/track-replay';
import { EVALUATOR_GROUP } from '../src/evaluator/position-evaluator';
import { lawfulDrive, seenRoute, type SeenRoute } from './corridor-tracks';
import { eventually } from '@corridor/platform/testing/eventually';
import { buildJourney, flagsOf, journeyStateOf, publishFixes, testClock, type Harness } from './journey-harness';

/**
 * Two journey service instances on one set of adapters (one database, one cache, one bus
 * namespace), as two pods: both evaluators sit in the same consumer group and split the
 * positions.v1 partitions by device id. Journey definitions reach the evaluators through
 * PostgreSQL and a per-device version counter in the cache (no journeys.v1 topic): the test
 * declares journeys on A for devices whose owner has already cached "no journey", and cancels them
 * on B, and checks which instance's evaluator stored each change.
 */
const kind = await primaryKind();
const dispatcher = testUsers.dispatcher;
/** Spread over all 4 partitions by both Kafka's murmur2 and the in-process bus's FNV-1a partitioner. */
const devices = [7101, 7102, 7103, 7104, 7105, 7106, 7107, 7108];
const t0 = Date.parse('2025-06-02T06:00:00Z');

interface StoredChange {
  instance: 'A' | 'B';
  journeyId: string;
  deviceId: number;
  event: string;
}

/** A logger that records the evaluator's "journey change stored" lines (and prints only warnings and errors). */
function instanceLogger(instance: 'A' | 'B', into: StoredChange[]): Logger {
  return createLogger(`journey-${instance}`, 'info', {
    hooks: {
      logMethod(args, method, level) {
        const [obj, msg] = args as unknown[];
        if (msg === 'journey change stored' && typeof obj === 'object' && obj !== null) {
          const o = obj as { journeyId: string; deviceId: number; event: string };
          into.push({ instance, journeyId: o.journeyId, deviceId: o.deviceId, event: o.event });
        }
        if (level >= 40) method.apply(this, args);
      },
    },
  });
}

/** Positions the evaluators of both instances have handled (the metric lives in this process). */
async function evaluatorConsumed(): Promise<number> {
  const metric = registry.getSingleMetric('bus_messages_consumed_total');
  const { values } = await metric!.get();
  return values
    .filter((v) => v.labels.group === EVALUATOR_GROUP && v.labels.topic === Topics.positions && v.labels.outcome === 'ok')
    .reduce((sum, v) => sum + v.value, 0);
}

describe(`two journey service instances on ${kind} adapters`, () => {
  let adapters: TestAdapters;
  let a: JourneyService;
  let b: JourneyService;
  let h: Harness;
  let route: SeenRoute;
  const changes: StoredChange[] = [];
  let declared: Journey[] = [];
  let lastFix = { time: 0, alongM: 0 };

  beforeAll(async () => {
    adapters = await createTestAdapters(kind);
    const clock = testClock(t0);
    a = await buildJourney({ ...adapters, logger: instanceLogger('A', changes) }, clock);
    await a.start();
    b = await buildJourney({ ...adapters, logger: instanceLogger('B', changes) }, clock);
    await b.start();
    h = { adapters, clock, svc: a };
    const [row] = await adapters.db.orm.select().from(routes).where(eq(routes.code, 'northern-corridor'));
    route = seenRoute(row!);
  });
  afterAll(async () => {
    await Promise.allSettled([a?.close(), b?.close()]);
    await adapters?.close();
  });

  async function call(svc: JourneyService, method: 'POST', url: string, user: Identity, payload: object) {
    return svc.app.inject({ method, url, headers: await asUser(user), payload });
  }

  /** Publishes fixes for every device; the answer waits until the evaluators have handled them all. */
  async function publishAll(fixes: readonly JourneyFix[]): Promise<{ drained: () => Promise<void> }> {
    const before = await evaluatorConsumed();
    await Promise.all(devices.map((d) => publishFixes(h, d, fixes)));
    const total = before + devices.length * fixes.length;
    return {
      drained: async () => {
        await eventually('the evaluators to drain positions.v1', async () => (await evaluatorConsumed()) >= total);
      },
    };
  }

  it('evaluates a journey declared through A at once, on whichever instance owns the device (B included)', async () => {
    // every device reports before it has a journey: its owner caches "no journey" for it
    const [lon, lat] = route.index.origin.center;
    await (await publishAll([{ time: t0, latitude: lat, longitude: lon, speedKnots: 0 }])).drained();

    declared = [];
    await registerDevices(
      adapters.cache,
      devices.map((id) => ({ id, companyId: 101 })),
    );
    for (const deviceId of devices) {
      const res = await call(a, 'POST', '/api/journey', dispatcher, {
        deviceId,
        routeId: route.row.id,
        companyId: 101,
        truckPlate: 'KDA 100X',
      });
      expect(res.statusCode, res.body).toBe(200);
      declared.push(res.json<Journey>());
    }

    const track = generateTrack(
      route.index,
      [
        { kind: 'stop', durationS: 120 },
        ...lawfulDrive(route.index, 0, 15_000),
        { kind: 'drive', speedKmh: 40, durationS: 120, lateralM: 3000 },
        { kind: 'drive', speedKmh: 40, durationS: 360 },
      ],
      { startTime: t0 + 60_000, intervalS: 30, seed: 5 },
    );
    lastFix = { time: track.endTime, alongM: track.endAlongM };
    const reference = replayJourney(undefined, track.fixes, route.index, route.thresholds);
    expect(reference.flags.map((f) => `${f.type}:${f.action}`)).toEqual(['offCorridor:open']);
    const sent = Date.now();
    const published = await publishAll(track.fixes);
    for (const j of declared) {
      // the evaluator logs a change once its events are out, just after the flag row is committed
      await eventually(`the off-corridor flag of journey ${j.id}`, async () =>
        changes.some((c) => c.journeyId === String(j.id) && c.event === 'journeyFlagOpened'),
      );
    }
    console.info(`off-corridor flagged ${Date.now() - sent} ms after the first fix was sent (measured, not asserted)`);
    await published.drained();

    for (const j of declared) {
      // every fix sent after the declaration counted: the flag opened at the same fix as in a replay of the whole track
      expect((await flagsOf(h, j.id)).map((f) => [f.type, f.openedAt, f.clearedAt])).toEqual([
        ['offCorridor', reference.flags[0]!.time, null],
      ]);
      expect(await journeyStateOf(h, j.id)).toBe('active');
      const mine = changes.filter((c) => c.journeyId === String(j.id));
      expect(mine.map((c) => c.event)).toEqual(['journeyStarted', 'journeyFlagOpened']);
      // one evaluator owns the device's partition and did all of its work
      expect(new Set(mine.map((c) => c.instance)).size).toBe(1);
    }
    const owners = new Set(changes.map((c) => c.instance));
    expect([...owners].sort()).toEqual(['A', 'B']);
  });

  it('raises no further flag anywhere once the journey is cancelled through B', async () => {
    expect(declared).toHaveLength(devices.length);
    // the trucks keep reporting (still off the corridor), so each owner holds a copy of the active journey
    const [lon, lat] = route.index.pointAt(lastFix.alongM, 3000);
    await (await publishAll([{ time: lastFix.time + 30_000, latitude: lat, longitude: lon, speedKnots: 20 }])).drained();
    expect(changes.filter((c) => c.event !== 'journeyStarted' && c.event !== 'journeyFlagOpened')).toEqual([]);

    for (const j of declared) {
      const res = await call(b, 'POST', `/api/journey/${j.id}/cancel`, dispatcher, { reason: 'load refused' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<Journey>()).toMatchObject({ state: 'cancelled', flagged: false });
    }
    const storedBefore = changes.length;

    // the trucks stay 3 km off the corridor for another 10 minutes
    const more = generateTrack(route.index, [{ kind: 'drive', speedKmh: 40, durationS: 600, lateralM: 3000 }], {
      startTime: lastFix.time + 60_000,
      startAlongM: lastFix.alongM,
      startLateralM: 3000,
      intervalS: 30,
      seed: 6,
    });
    await (await publishAll(more.fixes)).drained();
    expect(changes.slice(storedBefore)).toEqual([]);

    // neither instance's timer sweep touches the cancelled journeys either (hours later: signal loss would be due)
    h.clock.set(more.endTime + 3 * 3600_000);
    for (const svc of [a, b]) expect(await svc.sweep.run()).toMatchObject({ checked: 0, changed: 0 });

    for (const j of declared) {
      expect(await journeyStateOf(h, j.id)).toBe('cancelled');
      const flags = await flagsOf(h, j.id);
      expect(flags.map((f) => f.type)).toEqual(['offCorridor']);
      expect(flags[0]!.clearedAt).not.toBeNull();
      expect(flags[0]!.details.cleared).toEqual({ reason: 'journeyCancelled' });
    }
  });
});
