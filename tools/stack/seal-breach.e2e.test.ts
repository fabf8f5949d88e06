import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Journey, JourneyDetail, Route } from '@corridor/contracts';
import { corridorSeed } from '@corridor/journey/seed/corridor-seeds';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { TestDevice } from '../../services/ingest/test/test-device';
import { ADMIN_AUTH, eventually, startTestStack, type Res, type TestStack, type TestUser } from './test-stack';

/**
 * An electronic seal's lock events from the wire to a journey flag: a JT709 seal sends Jointech P45
 * lock events over TCP to ingest's JT701 port, ingest answers `(P69,0,<serial>)` and publishes the
 * positions (the `unlock` alarm, sealEvent `unlocked`) on positions.v1, and the journey evaluator
 * consuming them raises `sealBreach` for the opening at the roadside and nothing for the opening at
 * Malaba, a border post the journey's route allows. The flags are read through the gateway. Whole
 * stack, on the real parts where the environment has them (Kafka between ingest and journey).
 *
 * The P45 layout (date, time, latitude, N/S, longitude, E/W, A/V, speed, course, event source,
 * unlock verification, RFID card, password verification, wrong-password count, serial) is
 * Jointech's published JT701/JT709 protocol (source 6 = dynamic password, verification 98 = unlocked);
 * the message shape is its published sample `(7890629284,P45,260321,185342,...)`; the positions here
 * are the route's.
 */
const COMPANY = 101;
/** Tororo, Uganda, 12 km past Malaba on the A104/A109. */
const TORORO: [number, number] = [34.181, 0.693];

let s: TestStack;
let dispatcher: TestUser;
let route: Route;
let seal: Device;
let journey: Journey;

const ok = <T>(res: Res, status = 200): T => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json<T>();
};

/** `ddmmyy` and `hhmmss` of a UTC time, as the seal writes them. */
function p45Time(t: Date): [string, string] {
  const two = (n: number) => String(n).padStart(2, '0');
  return [
    `${two(t.getUTCDate())}${two(t.getUTCMonth() + 1)}${two(t.getUTCFullYear() % 100)}`,
    `${two(t.getUTCHours())}${two(t.getUTCMinutes())}${two(t.getUTCSeconds())}`,
  ];
}

/** A P45 "unlocked by dynamic password" lock event at [lon, lat]. */
function unlockedAt(id: string, at: Date, [lon, lat]: readonly number[], serial: number): Buffer {
  const [date, time] = p45Time(at);
  const ns = lat! < 0 ? 'S' : 'N';
  const ew = lon! < 0 ? 'W' : 'E';
  return Buffer.from(
    `(${id},P45,${date},${time},${Math.abs(lat!).toFixed(6)},${ns},${Math.abs(lon!).toFixed(6)},${ew},A,0.00,0,6,98,0000000000,1,0,${serial})`,
  );
}

/** The vertex of the route's line farthest from every stop area centre (equirectangular metres). */
function roadside(r: Route): [number, number] {
  const metres = (a: readonly number[], b: readonly number[]) => {
    const k = Math.cos(((a[1]! + b[1]!) / 2) * (Math.PI / 180));
    return Math.hypot((a[0]! - b[0]!) * k, a[1]! - b[1]!) * 111_320;
  };
  const line = r.line ?? [];
  let best: [number, number] = [line[0]![0]!, line[0]![1]!];
  let bestM = -1;
  for (const v of line) {
    const m = Math.min(...r.stopAreas.map((a) => metres(v, a.center) - a.radiusM));
    if (m > bestM) [best, bestM] = [[v[0]!, v[1]!], m];
  }
  return best;
}

beforeAll(async () => {
  s = await startTestStack(await primaryKind());
  dispatcher = await s.user(['dispatcher'], COMPANY);
  // The seeded Northern Corridor continued to Tororo: Malaba OSBP becomes a border post on the route, as for transit cargo.
  const seed = corridorSeed('northern');
  const malaba = seed.stopAreas.find((a) => a.kind === 'destination')!;
  route = ok<Route>(
    await s.call(dispatcher.auth, 'POST', '/api/routes', {
      ...seed,
      code: `seal-e2e-${Date.now()}`,
      name: 'Northern Corridor to Tororo (seal e2e)',
      line: [...seed.line!, TORORO],
      speedLimitsKmh: [...seed.speedLimitsKmh, 50],
      stopAreas: [
        ...seed.stopAreas.filter((a) => a !== malaba),
        { ...malaba, kind: 'border' },
        { kind: 'destination', name: 'Tororo', center: TORORO, radiusM: 1000 },
      ],
    }),
  );
  const uniqueId = `7${String(Date.now()).slice(-9)}`;
  seal = ok<Device>(await s.call(ADMIN_AUTH, 'POST', '/api/devices', { name: `seal ${uniqueId}`, uniqueId, companyId: COMPANY }));
  journey = ok<Journey>(
    await s.call(dispatcher.auth, 'POST', '/api/journey', {
      deviceId: seal.id,
      routeId: route.id,
      companyId: COMPANY,
      truckPlate: 'KDA 709S',
      shipmentRef: 'SEAL-E2E',
      plannedDeparture: new Date(Date.now() - 3600_000).toISOString(),
    }),
  );
  await eventually('the seal in the ingest registry', async () => s.ingest.registry.lookup(uniqueId), 60_000);
}, 180_000);

afterAll(async () => {
  await s?.close();
});

describe('seal events from the JT701 port to the journey flags', () => {
  it('opened at the border post on the route: nothing; opened at the roadside: sealBreach with the place', async () => {
    const port = await s.ingest.ports.tcp.jt701.listen(0, '127.0.0.1');
    const border = route.stopAreas.find((a) => a.kind === 'border' && a.name === 'Malaba OSBP')!;
    const side = roadside(route);
    const now = Date.now();
    const atBorder = new Date(Math.floor(now / 1000) * 1000 - 20 * 60_000);
    const atRoadside = new Date(atBorder.getTime() + 10 * 60_000);
    // The border opening first: the same device's positions reach the evaluator in order, so once the
    // roadside flag is there the border event has been evaluated too.
    const device = await TestDevice.open(port);
    try {
      await device.write(unlockedAt(seal.uniqueId, atBorder, border.center, 41), true);
      await device.write(unlockedAt(seal.uniqueId, atRoadside, side, 42), true);
      await device.waitReceived('(P69,0,41)(P69,0,42)'.length, 30_000);
      expect(device.received.toString()).toBe('(P69,0,41)(P69,0,42)');
    } finally {
      device.close();
    }

    const flags = await eventually(
      'the sealBreach flag',
      async () => {
        const detail = ok<JourneyDetail>(await s.call(dispatcher.auth, 'GET', `/api/journey/${journey.id}`));
        const breaches = detail.flags.filter((f) => f.type === 'sealBreach');
        return breaches.length ? breaches : undefined;
      },
      60_000,
    );
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({
      openedAt: atRoadside.toISOString(),
      clearedAt: null,
      latitude: expect.closeTo(side[1], 5),
      longitude: expect.closeTo(side[0], 5),
      details: { event: 'opened', sealEvent: 'unlocked', place: 'no permitted place', location: 'fix' },
    });
    expect(flags[0]!.details.nearestPlaceDistanceM).toBeGreaterThan(0);

    // the positions themselves, as stored: both lock events with the seal's unlock alarm
    const positions = ok<{ fixTime: string; attributes: Record<string, unknown> }[]>(
      await s.call(
        dispatcher.auth,
        'GET',
        `/api/positions?deviceId=${seal.id}&from=${new Date(now - 3600_000).toISOString()}&to=${new Date(now).toISOString()}`,
      ),
    );
    expect(positions.map((p) => [p.fixTime, p.attributes.alarm, p.attributes.sealEvent])).toEqual([
      [atBorder.toISOString(), 'unlock', 'unlocked'],
      [atRoadside.toISOString(), 'unlock', 'unlocked'],
    ]);
    const flagged = ok<Journey[]>(await s.call(dispatcher.auth, 'GET', '/api/journey/flagged?flagType=sealBreach'));
    expect(flagged.find((j) => j.id === journey.id)?.openFlags).toContain('sealBreach');
  }, 180_000);
});
