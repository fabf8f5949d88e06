import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Journey, JourneyDetail, JourneyFlag, PositionMessage } from '@corridor/contracts';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { asUser, testUsers } from '@corridor/platform/testing/identity';
import { routes } from '../src/db/schema';
import { corridorSeed } from '../src/seed/corridor-seeds';
import type { JourneyFix } from '../src/detectors/flag-change';
import { generateTrack, type TrackPhase } from '../src/detectors/track-generator';
import { approvedStop, lawfulDrive, roadsideAlong, seenRoute, type SeenRoute } from './corridor-tracks';
import { eventually } from '@corridor/platform/testing/eventually';
import { flagsOf, positionOf, startHarness, waitProcessed, type Harness } from './journey-harness';

/**
 * Seal events through the whole journey service on the Northern Corridor: positions.v1
 * messages carrying an electronic seal's state (as the JT701 decoder writes them: `lock`,
 * `sealEvent`, the `unlock` alarm) go onto the bus. The seal opened at the roadside raises a
 * sealBreach flag at once; opened at a border post on the route it raises nothing; the flag is read
 * back from the journeys API (the flagged list, the journey, the review). Waits for conditions,
 * never for durations.
 */
const kind = await primaryKind();
const dispatcher = testUsers.dispatcher;
/** Tororo, Uganda, 12 km past Malaba on the A104/A109. */
const TORORO: [number, number] = [34.181, 0.693];

describe(`seal breach on ${kind} adapters`, () => {
  let h: Harness;
  let route: SeenRoute;

  beforeAll(async () => {
    h = await startHarness(kind);
    // The seeded Northern Corridor ends at Malaba: continued to Tororo (Uganda), Malaba OSBP becomes
    // a border post on the route, as for transit cargo.
    const seed = corridorSeed('northern');
    const malaba = seed.stopAreas.find((a) => a.kind === 'destination')!;
    const created = await h.svc.routes.create(
      {
        ...seed,
        code: 'northern-corridor-tororo',
        name: 'Northern Corridor to Tororo',
        line: [...seed.line!, TORORO],
        speedLimitsKmh: [...seed.speedLimitsKmh, 50],
        stopAreas: [
          ...seed.stopAreas.filter((a) => a !== malaba),
          { ...malaba, kind: 'border' },
          { kind: 'destination', name: 'Tororo', center: TORORO, radiusM: 1000 },
        ],
      },
      testUsers.admin,
    );
    const [row] = await h.adapters.db.orm.select().from(routes).where(eq(routes.id, created.id));
    route = seenRoute(row!);
  });
  afterAll(async () => {
    await h?.svc.close();
    await h?.adapters.close();
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    h.svc.app.inject({ method, url, headers: await asUser(dispatcher), ...(payload ? { payload } : {}) });

  /** One stretch of track starting where the last one ended. */
  function piece(phases: TrackPhase[], from: { time: number; alongM: number }) {
    const t = generateTrack(route.index, phases, { startTime: from.time, startAlongM: from.alongM, intervalS: 60, seed: 7 });
    return { fixes: t.fixes, end: { time: t.endTime, alongM: t.endAlongM } };
  }

  /** The seal's report on a fix: locked unless `open`, with the unlocking alarm on `alarm`. */
  function sealed(deviceId: number, fix: JourneyFix, seal: { open?: boolean; alarm?: boolean } = {}): PositionMessage {
    const p = positionOf(deviceId, fix);
    return {
      ...p,
      protocol: 'jt701',
      alarm: seal.alarm ? 'unlock' : null,
      attributes: { lock: !seal.open, ropeInserted: true, coverClosed: true, ...(seal.alarm ? { sealEvent: 'unlocked' } : {}) },
    };
  }

  async function publish(positions: PositionMessage[]): Promise<void> {
    await h.adapters.bus.publish(
      'positions.v1',
      positions.map((value) => ({ key: String(value.deviceId), value })),
    );
  }

  it('opened at the roadside: one sealBreach at once; opened at Malaba border post on the route: nothing; on the API', async () => {
    const start = Date.parse('2025-06-02T05:00:00Z');
    h.clock.set(start);
    const border = approvedStop(route.index, 'border', route.index.lengthM - 20_000);
    expect(border.name).toBe('Malaba OSBP');
    const roadside = roadsideAlong(route.index, border.alongM - 60_000);
    expect(roadside).toBeLessThan(border.alongM - 10_000);
    const deviceId = kind === 'embedded' ? 7001 : 7101;
    const journey: Journey = await h.svc.journeys.create(
      {
        deviceId,
        truckPlate: 'KDA 701S',
        companyId: 101,
        routeId: route.row.id,
        shipmentRef: 'SEAL-1',
        cargoRef: 'CONT-1',
        plannedDeparture: new Date(start + 600_000).toISOString(),
        plannedArrival: null,
        origin: null,
        destination: null,
        attributes: {},
      },
      dispatcher,
    );

    // four minutes at the roadside (short of an unauthorized stop): opened there, then on to Malaba locked
    const toRoadside = piece([{ kind: 'stop', durationS: 600 }, ...lawfulDrive(route.index, 0, roadside)], { time: start, alongM: 0 });
    const stop = piece([{ kind: 'stop', durationS: 240 }], toRoadside.end);
    const toBorder = piece(lawfulDrive(route.index, roadside, border.alongM), stop.end);
    const opening = sealed(deviceId, stop.fixes[1]!, { open: true, alarm: true });
    await publish([
      ...toRoadside.fixes.map((f) => sealed(deviceId, f)),
      sealed(deviceId, stop.fixes[0]!),
      opening,
      ...stop.fixes.slice(2).map((f) => sealed(deviceId, f, { open: true })),
      ...toBorder.fixes.map((f) => sealed(deviceId, f)),
    ]);
    const breaches = await eventually('the sealBreach flag', async () => {
      const flags = (await flagsOf(h, journey.id)).filter((f) => f.type === 'sealBreach');
      return flags.length ? flags : undefined;
    });
    expect(breaches).toHaveLength(1);
    expect(breaches[0]).toMatchObject({
      openedAt: opening.fixTime,
      clearedAt: null,
      details: { event: 'opened', sealEvent: 'unlocked', place: 'no permitted place', location: 'fix' },
    });
    expect(typeof breaches[0]!.details.nearestPlace).toBe('string');
    expect(breaches[0]!.details.nearestPlaceDistanceM).toBeGreaterThan(0);

    // 30 minutes at Malaba with the seal opened for customs and locked again, then on to Tororo
    const atBorder = piece([{ kind: 'stop', durationS: 1800 }], toBorder.end);
    const beyond = piece([{ kind: 'drive', speedKmh: 40, distanceM: 2000 }], atBorder.end);
    await publish([
      ...atBorder.fixes.map((f, i) => sealed(deviceId, f, { open: i >= 5 && i <= 20, alarm: i === 5 })),
      ...beyond.fixes.map((f) => sealed(deviceId, f)),
      opening, // the roadside opening delivered again
    ]);
    await waitProcessed(h, journey.id, beyond.fixes.at(-1)!.time);
    const sealFlags = (await flagsOf(h, journey.id)).filter((f) => f.type === 'sealBreach');
    expect(sealFlags.map((f) => f.openedAt)).toEqual([opening.fixTime]);

    // on the journeys API: the flagged tab (filtered by the new type), the journey, the review
    const flagged = await call('GET', '/api/journey/flagged?flagType=sealBreach');
    expect(flagged.statusCode, flagged.body).toBe(200);
    expect(flagged.json<Journey[]>().find((j) => j.id === journey.id)?.openFlags).toContain('sealBreach');
    const detail = (await call('GET', `/api/journey/${journey.id}`)).json<JourneyDetail>();
    const flag = detail.flags.find((f) => f.type === 'sealBreach')!;
    expect(flag).toMatchObject({ review: 'new', details: { place: 'no permitted place' } });
    const ack = await call('POST', `/api/journey/flags/${flag.id}/acknowledge`, { note: 'seal checked by the escort' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json<JourneyFlag>()).toMatchObject({ review: 'acknowledged', acknowledgedNote: 'seal checked by the escort' });
  }, 120_000);
});
