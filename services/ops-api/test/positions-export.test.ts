import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { eq } from 'drizzle-orm';
import {
  DeviceInput,
  EventMessage,
  GPX_MEDIA_TYPE,
  KML_MEDIA_TYPE,
  PositionMessage,
  positionId,
  positionsEndpoints,
  type PositionMessageInput,
} from '@corridor/contracts';
import { cacheKeys, countPositions, insertEvents, insertPositions, type Identity } from '@corridor/platform';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, testUsers } from '@corridor/platform/testing/identity';
import { audit } from '../src/audit/audit';
import { devices } from '../src/db/schema';
import { readLiveStates } from '../src/device-state/live-state';
import { onPosition } from '../src/device-state/status';
import { startHarness, type Harness } from './tracking-harness';
import { expectError } from './tracking-expect';
import { geofenceOwner } from './geofence-owner';
import { offlineGeocoder } from '@corridor/geodata/reverse-geocoder';

/** Traccar's position exports (CSV, GPX, KML; GET /positions by Accept) and DELETE /positions, on the harness's stores. */
let h: Harness;
let fences: Awaited<ReturnType<typeof geofenceOwner>>;
const ids = { a: 0, b: 0, del: 0 };
const T0 = Date.parse('2026-07-01T06:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();
const period = `from=${encodeURIComponent(at(0))}&to=${encodeURIComponent(at(3600))}`;

const fix = (deviceId: number, s: number, patch: Partial<PositionMessageInput> = {}): PositionMessage =>
  PositionMessage.parse({
    id: positionId(deviceId, T0 + s * 1000),
    deviceId,
    uniqueId: `px-${deviceId}`,
    protocol: 'teltonika',
    fixTime: at(s),
    serverTime: at(s + 1),
    valid: true,
    latitude: -1.29 + s / 1e5,
    longitude: 36.82 + s / 1e5,
    speed: 12.5,
    course: 90,
    altitude: 1650,
    satellites: 9,
    ignition: true,
    ...patch,
  });

beforeAll(async () => {
  fences = await geofenceOwner([4, 5]);
  h = await startHarness({ geofenceUrl: fences.url });
  const device = (name: string, uniqueId: string, companyId: number | null) =>
    h.svc.devices.create(DeviceInput.parse({ name, uniqueId, companyId }));
  ids.a = (await device('Tanker <7> & "co"', 'px-a', 101)).id;
  ids.b = (await device('KBB', 'px-b', 202)).id;
  ids.del = (await device('KDEL', 'px-del', 101)).id;
  const put = insertPositions(h.adapters.analytics);
  await put(
    [0, 600, 1200, 1800, 2400].map((s, i) =>
      fix(ids.a, s, { attributes: i === 2 ? { fuelLevel: 40, driverUniqueId: 'D1' } : { fuelLevel: 41 } }),
    ),
  );
  await put([fix(ids.a, 7200)]); // after the period
  await put([fix(ids.b, 0)]);
  await put([0, 60, 120, 180, 240].map((s) => fix(ids.del, s)));
  // geofence 4: entered before the period, left at 1200 s, entered again at 2400 s (and still inside)
  await insertEvents(h.adapters.analytics)(
    [
      { id: 'px-1', type: 'geofenceEnter', eventTime: at(-600), deviceId: ids.a, geofenceId: '4' },
      { id: 'px-2', type: 'geofenceExit', eventTime: at(1200), deviceId: ids.a, geofenceId: '4' },
      { id: 'px-3', type: 'geofenceEnter', eventTime: at(2400), deviceId: ids.a, geofenceId: '4' },
      { id: 'px-4', type: 'geofenceExit', eventTime: at(600), deviceId: ids.a, geofenceId: '5' },
    ].map((e) => EventMessage.parse(e)),
  );
});
afterAll(async () => {
  await h?.close();
  await fences?.close();
});

const get = async (url: string, user: Identity = testUsers.officer, accept?: string) =>
  h.svc.app.inject({ method: 'GET', url, headers: { ...(await asUser(user)), ...(accept ? { accept } : {}) } });

describe('GET /positions/csv', () => {
  it("writes Traccar's columns, the stored fields under Traccar's attribute keys and one column per attribute key", async () => {
    const res = await get(`/api/positions/csv?deviceId=${ids.a}&${period}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="positions-${ids.a}-2026-07-01-2026-07-01.csv"`);
    const [header] = res.body.split('\n');
    expect(header).toBe(
      'id,deviceId,protocol,serverTime,deviceTime,fixTime,valid,latitude,longitude,altitude,speed,course,address,accuracy,' +
        'sat,hdop,ignition,odometer,power,battery,alarm,driverUniqueId,fuelLevel',
    );
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.fixTime)).toEqual([at(0), at(600), at(1200), at(1800), at(2400)]);
    expect(rows[2]).toMatchObject({
      id: String(positionId(ids.a, T0 + 1_200_000)),
      deviceId: String(ids.a),
      valid: 'true',
      altitude: '1650',
      sat: '9',
      ignition: 'true',
      fuelLevel: '40',
      driverUniqueId: 'D1',
    });
    // the offline geocoder's address of the fix (its answers are hand-checked in packages/geodata)
    for (const r of rows) expect(r.address).toBe(offlineGeocoder().reverse(Number(r.latitude), Number(r.longitude)).address);
    expect(rows[2]!.address).toMatch(/ of Nairobi, KE$|^Nairobi, KE$/);
    expect(rows[0]!.driverUniqueId).toBe('');
  });

  it('keeps to a geofence: the positions from its enter to its exit', async () => {
    const rows = parse((await get(`/api/positions/csv?deviceId=${ids.a}&${period}&geofenceId=4`)).body, { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((r) => r.fixTime)).toEqual([at(0), at(600), at(2400)]);
    expect(parse((await get(`/api/positions/csv?deviceId=${ids.a}&${period}&geofenceId=5`)).body, { columns: true })).toEqual([]);
  });
});

describe('GET /positions/gpx and /positions/kml', () => {
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

  it('writes one GPX track named after the device (escaped), a trkpt per position', async () => {
    const res = await get(`/api/positions/gpx?deviceId=${ids.a}&${period}`);
    expect(res.headers['content-type']).toBe(GPX_MEDIA_TYPE);
    const doc = xml.parse(res.body) as {
      gpx: { version: string; trk: { name: string; trkseg: { trkpt: { lat: string; lon: string; ele: number; time: string }[] } } };
    };
    expect(doc.gpx.version).toBe('1.0');
    expect(doc.gpx.trk.name).toBe('Tanker <7> & "co"');
    expect(doc.gpx.trk.trkseg.trkpt).toHaveLength(5);
    expect(doc.gpx.trk.trkseg.trkpt[1]).toEqual({
      lat: String(-1.29 + 600 / 1e5),
      lon: String(36.82 + 600 / 1e5),
      ele: 1650,
      time: at(600),
    });
  });

  it('writes a KML LineString of longitude,latitude,altitude', async () => {
    const res = await get(`/api/positions/kml?deviceId=${ids.a}&${period}&geofenceId=4`);
    expect(res.headers['content-type']).toBe(KML_MEDIA_TYPE);
    const doc = xml.parse(res.body) as {
      kml: { Document: { name: string; Placemark: { name: string; LineString: { coordinates: string } } } };
    };
    expect(doc.kml.Document.Placemark.name).toBe('2026-07-01 06:00 - 2026-07-01 07:00');
    expect(doc.kml.Document.Placemark.LineString.coordinates.split(' ')).toEqual(
      [0, 600, 2400].map((s) => `${36.82 + s / 1e5},${-1.29 + s / 1e5},1650`),
    );
  });

  it('answers the CSV or GPX export for GET /positions by Accept, as Traccar does', async () => {
    const csv = await get(`/api/positions?deviceId=${ids.a}&${period}`, testUsers.officer, 'text/csv');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(parse(csv.body, { columns: true })).toHaveLength(5);
    const gpx = await get(`/api/positions?deviceId=${ids.a}&${period}`, testUsers.officer, GPX_MEDIA_TYPE);
    expect(gpx.headers['content-type']).toBe(GPX_MEDIA_TYPE);
    expect((await get(`/api/positions?deviceId=${ids.a}&${period}`)).json<unknown[]>()).toHaveLength(5); // JSON otherwise
    expectError(
      await get(`/api/positions?deviceId=${ids.a}&deviceId=${ids.b}&${period}`, testUsers.officer, 'text/csv'),
      400,
      'VALIDATION_FAILED',
    );
  });

  it("gives every position of a history, of the latest and of an id lookup its address (Traccar's Position.address)", async () => {
    const addressOf = (p: PositionMessage) => offlineGeocoder().reverse(p.latitude, p.longitude).address;
    const history = (await get(`/api/positions?deviceId=${ids.a}&${period}`)).json<PositionMessage[]>();
    expect(history).toHaveLength(5);
    for (const p of history) expect(p.address).toBe(addressOf(p));
    const latest = (await get(`/api/positions?deviceId=${ids.a}`)).json<PositionMessage[]>();
    expect(latest).toHaveLength(1);
    expect(latest[0]!.address).toBe(addressOf(latest[0]!));
    const one = (await get(`/api/positions?id=${history[1]!.id}`)).json<PositionMessage[]>();
    expect(one.map((p) => p.address)).toEqual([history[1]!.address]);
  });

  it("keeps company users to their company's devices, and refuses a period over the maximum", async () => {
    expect((await get(`/api/positions/gpx?deviceId=${ids.a}&${period}`, testUsers.companyA)).statusCode).toBe(200);
    for (const url of [`/api/positions/csv?deviceId=${ids.b}&${period}`, `/api/positions/kml?deviceId=${ids.b}&${period}`]) {
      expectError(await get(url, testUsers.companyA), 404, 'NOT_FOUND');
    }
    expectError(await get(`/api/positions?deviceId=${ids.b}&${period}`, testUsers.companyA, 'text/csv'), 404, 'NOT_FOUND');
    expectError(
      await get(`/api/positions/csv?deviceId=${ids.a}&from=2026-01-01T00:00:00Z&to=2026-05-01T00:00:00Z`),
      400,
      'VALIDATION_FAILED',
    ); // over 92 days
  });
});

describe('DELETE /positions', () => {
  it("deletes a device's positions over a period, moves the latest position back, and audits it", async () => {
    const latest = fix(ids.del, 240);
    await h.adapters.cache.set(cacheKeys.latestPosition(ids.del), JSON.stringify(latest));
    await h.adapters.db.orm.update(devices).set({ positionId: latest.id }).where(eq(devices.id, ids.del));
    await h.svc.deviceState.apply([{ deviceId: ids.del, uniqueId: 'px-del', apply: (s) => onPosition(s, latest) }]);
    const res = await h.call(
      testUsers.admin,
      'DELETE',
      `/api/positions?deviceId=${ids.del}&from=${encodeURIComponent(at(100))}&to=${encodeURIComponent(at(300))}`,
    );
    expect(res.statusCode, res.body).toBe(204);
    expect(await countPositions(h.adapters.analytics)([ids.del])).toBe(2);
    const cached = JSON.parse((await h.adapters.cache.get(cacheKeys.latestPosition(ids.del)))!) as PositionMessage;
    expect(cached.fixTime).toBe(at(60));
    const [d] = await h.adapters.db.orm.select({ positionId: devices.positionId }).from(devices).where(eq(devices.id, ids.del));
    expect(d!.positionId).toBe(positionId(ids.del, T0 + 60_000));
    expect((await readLiveStates(h.adapters.cache, [ids.del])).get(ids.del)).toMatchObject({
      positionId: positionId(ids.del, T0 + 60_000),
      fixTime: T0 + 60_000,
    });
    const [entry] = await audit.forEntity(h.adapters.db.orm, 'device', ids.del);
    expect(entry).toMatchObject({
      action: 'positions.delete',
      actorUserId: testUsers.admin.userId,
      after: { from: at(100), to: at(300), deleted: 3 },
    });
  });

  it('deletes one position by id (404 for an id that names none), audited', async () => {
    const id = positionId(ids.del, T0 + 60_000);
    expect((await h.call(testUsers.admin, 'DELETE', `/api/positions/${id}`)).statusCode).toBe(204);
    expect(await countPositions(h.adapters.analytics)([ids.del])).toBe(1);
    expect(JSON.parse((await h.adapters.cache.get(cacheKeys.latestPosition(ids.del)))!)).toMatchObject({ fixTime: at(0) });
    expect((await audit.forEntity(h.adapters.db.orm, 'position', id))[0]).toMatchObject({
      action: 'position.delete',
      after: { deviceId: ids.del, deleted: 1 },
    });
    expectError(await h.call(testUsers.admin, 'DELETE', `/api/positions/${id}`), 404, 'NOT_FOUND');
    expectError(await h.call(testUsers.admin, 'DELETE', '/api/positions/12345'), 404, 'NOT_FOUND');
  });

  it('is for admins only; an unknown device answers 404', async () => {
    for (const user of [testUsers.officer, testUsers.companyA, testUsers.dispatcher]) {
      expectError(await h.call(user, 'DELETE', `/api/positions?deviceId=${ids.del}&${period}`), 403, 'FORBIDDEN');
      expectError(await h.call(user, 'DELETE', `/api/positions/${positionId(ids.del, T0)}`), 403, 'FORBIDDEN');
    }
    expect(await countPositions(h.adapters.analytics)([ids.del])).toBe(1);
    expectError(await h.call(testUsers.admin, 'DELETE', `/api/positions?deviceId=999999&${period}`), 404, 'NOT_FOUND');
  });
});

for (const endpoint of positionsEndpoints.filter((e) => e.service === 'ops-api' && e.id !== 'positions.list')) {
  runCommonRouteTests({ app: () => h.svc.app, endpoint });
}
