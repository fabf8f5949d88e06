import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EventMessage, type Journey } from '@corridor/contracts';
import { adapterKinds } from '@corridor/platform/testing/test-adapters';
import { testUsers } from '@corridor/platform/testing/identity';
import { queryEvents, type Subscription } from '@corridor/platform';
import { routes } from '../src/db/schema';
import { generateTrack, type TrackPhase } from '../src/detectors/track-generator';
import { replayJourney } from '../src/detectors/track-replay';
import { approvedStop, lawfulDrive, roadsideAlong, seenRoute, type SeenRoute } from './corridor-tracks';
import { eventually } from '@corridor/platform/testing/eventually';
import { buildJourney, flagsOf, journeyStateOf, publishFixes, startHarness, waitProcessed, type Harness } from './journey-harness';

/**
 * The whole service (build + start) on the seeded Northern Corridor: positions.v1 messages from the
 * track generator go onto the bus, flags are read back from PostgreSQL. Fix times lie in the past
 * and the sweep reads a test clock, so nothing waits in real time beyond the bus.
 */
const kinds = await adapterKinds();
const dispatcher = testUsers.dispatcher;
const atOrigin: TrackPhase = { kind: 'stop', durationS: 600 };

describe.each(kinds)('journey scenarios on %s adapters', (kind) => {
  let h: Harness;
  let route: SeenRoute;
  let nextDevice = kind === 'embedded' ? 1000 : 2000;
  const published: EventMessage[] = [];
  let eventsSub: Subscription;

  beforeAll(async () => {
    h = await startHarness(kind, { sweepIntervalMs: 20 });
    const [row] = await h.adapters.db.orm.select().from(routes).where(eq(routes.code, 'northern-corridor'));
    route = seenRoute(row!);
    eventsSub = await h.adapters.bus.subscribe({
      groupId: 'scenario-events-reader',
      topics: ['events.v1'],
      fromBeginning: true,
      handler: async (msgs) => void published.push(...msgs.map((m) => EventMessage.parse(JSON.parse(m.value)))),
    });
  });
  afterAll(async () => {
    await eventsSub?.stop();
    await h?.svc.close();
    await h?.adapters.close();
  });

  /** A journey on the seeded corridor for a fresh device, planned to leave 10 minutes after `start`. */
  async function declare(start: number): Promise<Journey> {
    return h.svc.journeys.create(
      {
        deviceId: nextDevice++,
        truckPlate: 'KCA 123A',
        companyId: 101,
        routeId: route.row.id,
        shipmentRef: 'SHP-1',
        cargoRef: null,
        plannedDeparture: new Date(start + 600_000).toISOString(),
        plannedArrival: null,
        origin: null,
        destination: null,
        attributes: {},
      },
      dispatcher,
    );
  }

  function track(phases: TrackPhase[], start: number, intervalS = 30) {
    return generateTrack(route.index, phases, { startTime: start, intervalS, seed: 11 });
  }

  async function drive(j: Journey, fixes: ReturnType<typeof track>['fixes']): Promise<void> {
    await publishFixes(h, j.deviceId, fixes);
    await waitProcessed(h, j.id, fixes[fixes.length - 1]!.time);
  }

  it('a truck following the corridor at lawful speeds raises no flag and completes at Malaba', async () => {
    const start = Date.parse('2025-03-03T05:00:00Z');
    h.clock.set(start);
    const j = await declare(start);
    const t = track([atOrigin, ...lawfulDrive(route.index, 0, route.index.lengthM)], start, 60);
    await drive(j, t.fixes);
    expect(await journeyStateOf(h, j.id)).toBe('completed');
    expect(await flagsOf(h, j.id)).toEqual([]);
  });

  it('a 3 km detour for 20 minutes opens off-corridor once and clears it', async () => {
    const start = Date.parse('2025-03-04T05:00:00Z');
    h.clock.set(start);
    const j = await declare(start);
    const t = track(
      [
        atOrigin,
        ...lawfulDrive(route.index, 0, 150_000),
        { kind: 'drive', speedKmh: 45, durationS: 120, lateralM: 3000 },
        { kind: 'drive', speedKmh: 45, durationS: 1200 },
        { kind: 'drive', speedKmh: 45, durationS: 120, lateralM: 0 },
        ...lawfulDrive(route.index, 170_000, 200_000),
      ],
      start,
    );
    await drive(j, t.fixes);
    const flags = await flagsOf(h, j.id);
    expect(flags.map((f) => [f.type, f.clearedAt !== null])).toEqual([['offCorridor', true]]);
    expect(flags[0]!.distanceM).toBeGreaterThan(route.row.widthM + 500);
    const events = await eventually('flag events on events.v1', async () => {
      const mine = published.filter((e) => e.journeyId === String(j.id) && e.type.startsWith('journeyFlag'));
      return mine.length >= 2 && mine;
    });
    expect(events.map((e) => [e.type, e.deviceId, e.attributes.flagType])).toEqual([
      ['journeyFlagOpened', j.deviceId, 'offCorridor'],
      ['journeyFlagCleared', j.deviceId, 'offCorridor'],
    ]);
    const stored = await queryEvents(h.adapters.analytics)({
      deviceIds: [j.deviceId],
      from: new Date(start),
      to: new Date(t.endTime),
      limit: 100,
    });
    expect(stored.map((e) => e.type)).toEqual(['journeyStarted', 'journeyFlagOpened', 'journeyFlagCleared']);
    await h.svc.journeys.cancel(j.id, 'scenario over', dispatcher);
  });

  it('a 2-hour stop at an approved truck stop raises nothing; at the roadside it raises unauthorized-stop', async () => {
    const start = Date.parse('2025-03-05T05:00:00Z');
    h.clock.set(start);
    // far enough along that four hours of stopping keeps the truck within its 40-hour plan (no late ETA)
    const yard = approvedStop(route.index, 'yard', 200_000);
    const roadside = roadsideAlong(route.index, yard.alongM + 20_000);
    const j = await declare(start);
    const t = track(
      [
        atOrigin,
        ...lawfulDrive(route.index, 0, yard.alongM),
        { kind: 'stop', durationS: 7200 },
        ...lawfulDrive(route.index, yard.alongM, roadside),
        { kind: 'stop', durationS: 7200 },
        ...lawfulDrive(route.index, roadside, roadside + 20_000),
      ],
      start,
    );
    await drive(j, t.fixes);
    const flags = await flagsOf(h, j.id);
    expect(flags.map((f) => [f.type, f.clearedAt !== null])).toEqual([['unauthorizedStop', true]]);
    const stopped = t.fixes.find((f) => f.speedKnots * 1.852 < 5 && route.index.match(f.longitude, f.latitude).alongM > roadside - 1000)!;
    const openedAfterS = (Date.parse(flags[0]!.openedAt) - stopped.time) / 1000;
    expect(openedAfterS).toBeGreaterThan(300);
    expect(openedAfterS).toBeLessThanOrEqual(330);
    await h.svc.journeys.cancel(j.id, 'scenario over', dispatcher);
  });

  it('a silent device raises signal loss on time from the sweep, escalates at 2 hours and clears when it reports again', async () => {
    const start = Date.parse('2025-03-06T05:00:00Z');
    h.clock.set(start);
    const j = await declare(start);
    const t = track(
      [
        atOrigin,
        ...lawfulDrive(route.index, 0, 80_000),
        { kind: 'drive', speedKmh: 60, durationS: 3 * 3600, delivered: false },
        { kind: 'drive', speedKmh: 60, durationS: 600 },
      ],
      start,
    );
    const lastBefore = t.fixes.filter((f) => f.time < t.endTime - 600_000 - 3 * 3600_000 + 1).at(-1)!.time;
    const before = t.fixes.filter((f) => f.time <= lastBefore);
    const after = t.fixes.filter((f) => f.time > lastBefore);
    await drive(j, before);

    h.clock.set(lastBefore + 10 * 60_000 - 1000);
    await h.svc.sweep.run();
    expect(await flagsOf(h, j.id)).toEqual([]);

    h.clock.set(lastBefore + 10 * 60_000 + 1000);
    const [opened] = await eventually('signal loss', async () => {
      const f = await flagsOf(h, j.id);
      return f.length > 0 && f;
    });
    expect(opened).toMatchObject({
      type: 'signalLoss',
      openedAt: new Date(lastBefore + 10 * 60_000).toISOString(),
      escalated: false,
      clearedAt: null,
    });

    h.clock.set(lastBefore + 120 * 60_000 + 1000);
    const escalated = await eventually('escalation', async () => {
      const [f] = await flagsOf(h, j.id);
      return f?.escalated && f;
    });
    expect(escalated.escalatedAt).toBe(new Date(lastBefore + 120 * 60_000).toISOString());

    await drive(j, after);
    const flags = await flagsOf(h, j.id);
    expect(flags).toHaveLength(1);
    expect(flags[0]!.clearedAt).toBe(new Date(after[0]!.time).toISOString());
    expect((flags[0]!.details.cleared as { gapS: number }).gapS).toBeGreaterThanOrEqual(3 * 3600);
    await h.svc.journeys.cancel(j.id, 'scenario over', dispatcher);
  });

  it('a consumer restart mid-journey, with redelivered positions, loses and duplicates no flag', async () => {
    const start = Date.parse('2025-03-07T05:00:00Z');
    h.clock.set(start);
    const j = await declare(start);
    const roadside = roadsideAlong(route.index, 200_000);
    const t = track(
      [
        atOrigin,
        ...lawfulDrive(route.index, 0, 120_000),
        { kind: 'drive', speedKmh: 45, durationS: 120, lateralM: 3000 },
        { kind: 'drive', speedKmh: 45, durationS: 1200 },
        { kind: 'drive', speedKmh: 45, durationS: 120, lateralM: 0 },
        ...lawfulDrive(route.index, 140_000, roadside),
        { kind: 'stop', durationS: 1800 },
        ...lawfulDrive(route.index, roadside, roadside + 10_000),
      ],
      start,
    );
    const reference = replayJourney(undefined, t.fixes, route.index, route.thresholds, { plannedDeparture: start + 600_000 });
    expect(reference.flags.map((f) => `${f.type}:${f.action}`)).toEqual([
      'offCorridor:open',
      'offCorridor:clear',
      'unauthorizedStop:open',
      'unauthorizedStop:clear',
    ]);

    // cut inside the detour, once the off-corridor flag is open
    const openedAt = Date.parse(reference.flags[0]!.time);
    const cut = t.fixes.findIndex((f) => f.time > openedAt + 5 * 60_000);
    await drive(j, t.fixes.slice(0, cut));
    expect((await flagsOf(h, j.id)).map((f) => [f.type, f.clearedAt])).toEqual([['offCorridor', null]]);

    await h.svc.close();
    h.svc = await buildJourney(h.adapters, h.clock, { sweepIntervalMs: 20 });
    await h.svc.start();
    // the bus redelivers the last fixes before the cut (at least once), then the rest of the track
    await drive(j, t.fixes.slice(cut - 40));

    const flags = await flagsOf(h, j.id);
    const expected = [
      { type: 'offCorridor', openedAt: reference.flags[0]!.time, clearedAt: reference.flags[1]!.time },
      { type: 'unauthorizedStop', openedAt: reference.flags[2]!.time, clearedAt: reference.flags[3]!.time },
    ];
    expect(flags.map((f) => ({ type: f.type, openedAt: f.openedAt, clearedAt: f.clearedAt }))).toEqual(expected);
    const stored = await queryEvents(h.adapters.analytics)({
      deviceIds: [j.deviceId],
      from: new Date(start),
      to: new Date(t.endTime),
      limit: 100,
      types: ['journeyFlagOpened', 'journeyFlagCleared'],
    });
    expect(stored).toHaveLength(4);
  });
});
