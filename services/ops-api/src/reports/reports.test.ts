import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import {
  DeviceInput,
  Event,
  EventMessage,
  Position,
  PositionMessage,
  ReportStop,
  ReportSummary,
  ReportTrip,
  reportsEndpoints,
  XLSX_MEDIA_TYPE,
} from '@corridor/contracts';
import { eventNumericId, insertEvents, insertPositions, publishUserDirectory, type Identity } from '@corridor/platform';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers, userWith } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { eventually } from '@corridor/platform/testing/eventually';
import { build, type OpsApiService } from '../app';
import { groups } from '../db/schema';
import { defaultReportSettings } from './settings';
import { computeTrackRuns, freshRunDays } from '../clickhouse/report-track-runs';
import { buildTrack, trackPositions, type Segment } from './synthetic-track';
import { offlineGeocoder } from '@corridor/geodata/reverse-geocoder';

let adapters: TestAdapters;
let svc: OpsApiService;
const ids = { a1: 0, a2: 0, b1: 0, groupA: 0, subgroupA: 0, groupB: 0 };

const T0 = Date.parse('2026-03-02T06:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();
const day: Segment[] = [
  { kind: 'drive', seconds: 7200, kmh: 60 },
  { kind: 'stop', seconds: 3600, idleSeconds: 600 },
  { kind: 'drive', seconds: 10800, kmh: 60 },
  { kind: 'stop', seconds: 5400, idleSeconds: 600 },
  { kind: 'drive', seconds: 7200, kmh: 60 },
];
const dayFixes = buildTrack({ start: new Date(T0), origin: [36.82, -1.29], everySeconds: 30, segments: day });
const period = `from=${encodeURIComponent('2026-03-02T00:00:00Z')}&to=${encodeURIComponent('2026-03-03T00:00:00Z')}`;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
  const orm = adapters.db.orm;
  const [gA] = await orm.insert(groups).values({ name: 'Company A fleet', companyId: 101 }).returning();
  const [sA] = await orm.insert(groups).values({ name: 'Company A tankers', companyId: 101, groupId: gA!.id }).returning();
  const [gB] = await orm.insert(groups).values({ name: 'Company B fleet', companyId: 202 }).returning();
  Object.assign(ids, { groupA: gA!.id, subgroupA: sA!.id, groupB: gB!.id });
  const device = (name: string, companyId: number, groupId: number | null) =>
    svc.devices.create(DeviceInput.parse({ name, uniqueId: `rep-${name.replace(/\W/g, '')}`, companyId, groupId }));
  ids.a1 = (await device('KBX 101A', 101, sA!.id)).id;
  ids.a2 = (await device('KBX 102A', 101, null)).id;
  ids.b1 = (await device('KCB 201B', 202, gB!.id)).id;
  const put = insertPositions(adapters.analytics);
  await put(trackPositions(ids.a1, 'rep-KBX101A', dayFixes).map((p) => PositionMessage.parse(p)));
  await put(trackPositions(ids.a2, 'rep-KBX102A', dayFixes.slice(0, 400), false).map((p) => PositionMessage.parse(p)));
  await put(trackPositions(ids.b1, 'rep-KCB201B', dayFixes).map((p) => PositionMessage.parse(p)));
  await insertEvents(adapters.analytics)([
    EventMessage.parse({ id: 'ev1', type: 'alarm', eventTime: at(100), deviceId: ids.a1, attributes: { alarm: 'sos' } }),
    EventMessage.parse({ id: 'ev2', type: 'geofenceEnter', eventTime: at(200), deviceId: ids.a1, geofenceId: '5' }),
    EventMessage.parse({ id: 'ev3', type: 'alarm', eventTime: at(300), deviceId: ids.b1, attributes: { alarm: 'sos' } }),
  ]);
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

const get = async (user: Identity, url: string, headers: Record<string, string> = {}) =>
  svc.app.inject({ method: 'GET', url: `/api/reports/${url}`, headers: { ...(await asUser(user)), ...headers } });
async function json<T extends z.ZodTypeAny>(schema: T, user: Identity, url: string): Promise<z.infer<T>[]> {
  const res = await get(user, url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  return z.array(schema).parse(res.json());
}

describe('GET /reports/trips and /reports/stops', () => {
  it("finds the day's 3 trips and 2 stops from ClickHouse, with Traccar's fields and units", async () => {
    const trips = await json(ReportTrip, testUsers.officer, `trips?deviceId=${ids.a1}&${period}`);
    expect(trips.map((t) => [t.startTime, t.endTime, t.duration, t.distance])).toEqual([
      [at(0), at(7410), 7_410_000, 120_000],
      [at(10800), at(21810), 11_010_000, 180_000],
      [at(27000), at(34170), 7_170_000, 119_500],
    ]);
    expect(trips[0]).toMatchObject({
      deviceId: ids.a1,
      deviceName: 'KBX 101A',
      startOdometer: 1_000_000,
      endOdometer: 1_120_000,
      spentFuel: 42,
    });
    const stops = await json(ReportStop, testUsers.officer, `stops?deviceId=${ids.a1}&${period}`);
    expect(stops.map((s) => [s.startTime, s.endTime, s.engineHours])).toEqual([
      [at(7410), at(10800), 390_000],
      [at(21810), at(27000), 390_000],
    ]);
  });

  it('fills the start and end address of each trip and the address of each stop (the offline geocoder)', async () => {
    const addressOf = (latitude: number, longitude: number) => offlineGeocoder().reverse(latitude, longitude).address;
    const trips = await json(ReportTrip, testUsers.officer, `trips?deviceId=${ids.a1}&${period}`);
    // the day starts at Nairobi's centre (36.82 E, 1.29 S: 0.8 km from GeoNames' point) and drives on
    expect(trips[0]!.startAddress).toBe('Nairobi, KE');
    for (const t of trips) {
      expect(t.startAddress).toBe(addressOf(t.startLat, t.startLon));
      expect(t.endAddress).toBe(addressOf(t.endLat, t.endLon));
      expect(t.endAddress).toMatch(/^\d+ km (N|NE|E|SE|S|SW|W|NW) of .+, [A-Z]{2}$/);
    }
    const stops = await json(ReportStop, testUsers.officer, `stops?deviceId=${ids.a1}&${period}`);
    expect(stops.map((x) => x.address)).toEqual(stops.map((x) => addressOf(x.latitude, x.longitude)));
    expect(stops.map((x) => x.address)).toEqual(trips.slice(0, 2).map((t) => t.endAddress));
    const csv = parse((await get(testUsers.officer, `trips?deviceId=${ids.a1}&${period}`, { accept: 'text/csv' })).body, {
      columns: true,
    }) as Record<string, string>[];
    expect(csv.map((r) => [r['Start address'], r['End address']])).toEqual(trips.map((t) => [t.startAddress, t.endAddress]));
  });

  it('takes threshold overrides per request (old logic here)', async () => {
    const trips = await json(ReportTrip, testUsers.officer, `trips?deviceId=${ids.a1}&${period}&newLogic=false`);
    expect(trips.map((t) => t.endTime)).toEqual([at(7200), at(21600), at(34170)]);
    const res = await get(testUsers.officer, `trips?deviceId=${ids.a1}&${period}&minDistance=-5`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [{ path: 'minDistance' }] } });
  });

  it('computes trips and stops in the store when asked to (motionInput store), with the same answers', async () => {
    const stored = await build({
      ...adapters,
      logger: adapters.logger,
      identitySecret: TEST_IDENTITY_SECRET,
      reports: { ...defaultReportSettings(), motionInput: 'store' },
    });
    try {
      const from = async (app: OpsApiService, url: string) => {
        const res = await app.app.inject({ method: 'GET', url: `/api/reports/${url}`, headers: await asUser(testUsers.officer) });
        expect(res.statusCode, res.body).toBe(200);
        return res.json<Record<string, unknown>[]>();
      };
      // lengths to 9 digits: the store sums the same haversine legs with its own sin/cos
      const rounded = (xs: Record<string, unknown>[]) =>
        xs.map((x) => ({
          ...x,
          distance: Number((x.distance as number).toPrecision(9)),
          averageSpeed: Number((x.averageSpeed as number).toPrecision(9)),
        }));
      for (const kind of ['trips', 'stops']) {
        for (const query of [
          `groupId=${ids.groupA}&deviceId=${ids.a2}&${period}&newLogic=false`,
          `deviceId=${ids.a1}&${period}&newLogic=false&useIgnition=true`,
        ]) {
          const expected = await from(svc, `${kind}?${query}`);
          expect(expected.length, `${kind}?${query}`).toBeGreaterThan(0);
          expect(rounded(await from(stored, `${kind}?${query}`)), `${kind}?${query}`).toEqual(rounded(expected));
        }
        // the newer model is not computed in the store: folded from the track, as by default
        expect(await from(stored, `${kind}?deviceId=${ids.a1}&${period}`)).toEqual(await from(svc, `${kind}?deviceId=${ids.a1}&${period}`));
      }
    } finally {
      await stored.close();
    }
  });

  it('reads whole days from the stored runs once computed, with the same answers as from every fix (issue 28)', async () => {
    const everyFix = await build({
      ...adapters,
      logger: adapters.logger,
      identitySecret: TEST_IDENTITY_SECRET,
      reports: { ...defaultReportSettings(), storedRuns: false },
    });
    try {
      const from = async (app: OpsApiService, url: string) => {
        const res = await app.app.inject({ method: 'GET', url: `/api/reports/${url}`, headers: await asUser(testUsers.officer) });
        expect(res.statusCode, res.body).toBe(200);
        return res.body;
      };
      expect(await computeTrackRuns(adapters.analytics)({ settledMs: 0 })).toBeGreaterThanOrEqual(3);
      const fresh = await freshRunDays(adapters.analytics)(
        [ids.a1, ids.a2, ids.b1],
        new Date('2026-03-02T00:00:00Z'),
        new Date('2026-03-03T00:00:00Z'),
      );
      expect(fresh.map((f) => f.day)).toEqual(['2026-03-02', '2026-03-02', '2026-03-02']);
      for (const kind of ['trips', 'stops']) {
        for (const query of [
          `groupId=${ids.groupA}&deviceId=${ids.b1}&${period}`,
          `deviceId=${ids.a1}&${period}&minDuration=60&minDistance=50`,
        ]) {
          const expected = await from(everyFix, `${kind}?${query}`);
          expect(JSON.parse(expected).length, `${kind}?${query}`).toBeGreaterThan(0);
          expect(await from(svc, `${kind}?${query}`), `${kind}?${query}`).toBe(expected);
        }
      }
    } finally {
      await everyFix.close();
    }
  });

  it('answers CSV by Accept header, as an attachment, that parses back', async () => {
    const res = await get(testUsers.officer, `trips?deviceId=${ids.a1}&${period}`, { accept: 'text/csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toBe('attachment; filename="trips-2026-03-02-2026-03-03.csv"');
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    // headed in words, in the caller's units (km, km/h by default) and time zone (UTC here)
    const wall = (iso: string) => iso.slice(0, 19).replace('T', ' ');
    expect(rows.map((r) => [r['Start (UTC)'], r.Duration, r['Distance (km)']])).toEqual([
      [wall(at(0)), '2:03:30', '120'],
      [wall(at(10800)), '3:03:30', '180'],
      [wall(at(27000)), '1:59:30', '119.5'],
    ]);
  });

  it('answers xlsx by format parameter, a workbook exceljs reads', async () => {
    const res = await get(testUsers.officer, `stops?deviceId=${ids.a1}&${period}&format=xlsx`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MEDIA_TYPE);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const sheet = wb.getWorksheet('stops')!;
    expect(sheet.rowCount).toBe(3);
    expect((sheet.getRow(2).getCell(2).value as Date).toISOString()).toBe(at(7410));
  });

  it("writes files in the caller's language, units and time zone (their attributes, as the gateway publishes them)", async () => {
    await publishUserDirectory(adapters.cache, [
      {
        id: testUsers.analyst.userId,
        companyId: null,
        language: 'sw',
        preferences: { speedUnit: 'kn', distanceUnit: 'nmi', timezone: 'Africa/Nairobi' },
      },
    ]);
    // the directory is read again at most every 2 s
    const first = await eventually('the file in Swahili', async () => {
      const res = await get(testUsers.analyst, `trips?deviceId=${ids.a1}&${period}&format=csv`);
      const [row] = parse(res.body, { columns: true }) as Record<string, string>[];
      return row && 'Kifaa' in row && row;
    });
    expect(first).toMatchObject({
      'Mwanzo (Africa/Nairobi)': at(3 * 3600)
        .slice(0, 19)
        .replace('T', ' '),
      'Umbali (NM)': '64.79',
      'Kasi ya juu (kn)': '32.4',
    });
  });

  it("answers Traccar's path form /reports/{type}/xlsx with the same workbook, whatever Accept says", async () => {
    for (const type of ['route', 'events', 'summary', 'trips', 'stops']) {
      const res = await get(testUsers.officer, `${type}/xlsx?deviceId=${ids.a1}&${period}`, { accept: 'application/json' });
      expect(res.statusCode, `${type}: ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX_MEDIA_TYPE);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as never);
      expect(wb.getWorksheet(type), type).toBeDefined();
    }
    const path = await get(testUsers.officer, `stops/xlsx?deviceId=${ids.a1}&${period}`);
    const param = await get(testUsers.officer, `stops?deviceId=${ids.a1}&${period}&format=xlsx`);
    const rows = async (b: Buffer) => {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(b as never);
      return wb
        .getWorksheet('stops')!
        .getSheetValues()
        .map((r) => JSON.stringify(r));
    };
    expect(await rows(path.rawPayload)).toEqual(await rows(param.rawPayload));
  });
});

describe('GET /reports/summary, /reports/route, /reports/events', () => {
  it('sums each device, and per day when asked', async () => {
    const [s, ...rest] = await json(ReportSummary, testUsers.officer, `summary?deviceId=${ids.a1}&${period}`);
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      deviceId: ids.a1,
      distance: 419_500,
      startTime: at(0),
      endTime: at(34170),
      engineHours: (7 * 3600 - 30 + 1200) * 1000,
    });
    const daily = await json(
      ReportSummary,
      testUsers.officer,
      `summary?deviceId=${ids.a1}&deviceId=${ids.a2}&${period}&daily=true&timezone=Africa/Nairobi`,
    );
    // Nairobi midnight is 21:00 UTC, after the day's last fix: one row per device
    expect(daily.map((d) => d.deviceId)).toEqual([ids.a1, ids.a2]);
    // a2 reports no counters: engine time from ignition, on at both ends of 259 legs before 07:59:30 and 39 after 09:00
    expect(daily[1]).toMatchObject({ engineHours: (259 + 39) * 30_000, startOdometer: null, spentFuel: 0 });
    expect((await get(testUsers.officer, `summary?deviceId=${ids.a1}&${period}&timezone=Mars/Olympus`)).statusCode).toBe(400);
  });

  it('lists the route, oldest first, device after device, as JSON or CSV', async () => {
    const route = await json(Position, testUsers.officer, `route?deviceId=${ids.a2}&deviceId=${ids.a1}&${period}`);
    expect(route).toHaveLength(dayFixes.length + 400);
    expect(route[0]).toMatchObject({ deviceId: ids.a1, fixTime: at(0) });
    expect(route[dayFixes.length]).toMatchObject({ deviceId: ids.a2, fixTime: at(0) });
    const csv = await get(testUsers.officer, `route?deviceId=${ids.a2}&${period}&format=csv`);
    const rows = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(400);
    expect(rows[0]).toMatchObject({
      Device: 'KBX 102A',
      'Time (UTC)': at(0).slice(0, 19).replace('T', ' '),
      Ignition: 'yes',
      'Odometer (km)': '',
    });
  });

  it('lists events, filtered by type and alarm', async () => {
    const [ev1, ev2, ev3] = ['ev1', 'ev2', 'ev3'].map(eventNumericId);
    const all = await json(Event, testUsers.officer, `events?deviceId=${ids.a1}&${period}&type=%25`);
    expect(all.map((e) => e.id)).toEqual([ev1, ev2]);
    expect(all[1]).toMatchObject({ type: 'geofenceEnter', geofenceId: 5, positionId: 0, maintenanceId: 0 });
    expect((await json(Event, testUsers.officer, `events?deviceId=${ids.a1}&${period}&type=%`)).map((e) => e.id)).toEqual([ev1, ev2]); // as Traccar's web app sends it
    expect((await json(Event, testUsers.officer, `events?deviceId=${ids.a1}&${period}&type=geofenceEnter`)).map((e) => e.id)).toEqual([
      ev2,
    ]);
    expect((await json(Event, testUsers.officer, `events?groupId=${ids.groupB}&${period}&alarm=sos`)).map((e) => e.id)).toEqual([ev3]);
    expect((await get(testUsers.officer, `events?deviceId=${ids.a1}&${period}&type=teleported`)).statusCode).toBe(400);
  });
});

describe('report requests', () => {
  it('refuses a period over the maximum with a clear 400', async () => {
    const res = await get(testUsers.officer, `trips?deviceId=${ids.a1}&from=2026-01-01T00:00:00Z&to=2026-04-15T00:00:00Z`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: { maxPeriodDays: 92, periodDays: 104 } } });
    expect(res.json().error.message).toContain('at most 92 days');
    expect((await get(testUsers.officer, `summary?deviceId=${ids.a1}&from=2026-01-01T00:00:00Z&to=2026-04-03T00:00:00Z`)).statusCode).toBe(
      200,
    ); // exactly 92 days
  });

  it('refuses a reversed period, a missing date and a request without devices', async () => {
    expect((await get(testUsers.officer, `trips?deviceId=${ids.a1}&from=2026-03-03T00:00:00Z&to=2026-03-02T00:00:00Z`)).statusCode).toBe(
      400,
    );
    const noFrom = await get(testUsers.officer, `route?deviceId=${ids.a1}&to=2026-03-02T00:00:00Z`);
    expect(noFrom.statusCode).toBe(400);
    expect(noFrom.json()).toMatchObject({ error: { details: [{ path: 'from' }] } });
    const none = await get(testUsers.officer, `stops?${period}`);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ error: { details: { fields: ['deviceId', 'groupId'] } } });
    expect((await get(testUsers.officer, `trips?deviceId=abc&${period}`)).statusCode).toBe(400);
  });

  it("gives company users their own company's devices and groups only", async () => {
    const own = await json(ReportTrip, testUsers.companyA, `trips?deviceId=${ids.a1}&${period}`);
    expect(own).toHaveLength(3);
    for (const url of [
      `trips?deviceId=${ids.b1}&${period}`,
      `route?deviceId=${ids.a1}&deviceId=${ids.b1}&${period}`,
      `summary?groupId=${ids.groupB}&${period}`,
    ]) {
      const res = await get(testUsers.companyA, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    expect((await get(testUsers.companyB, `events?deviceId=${ids.a1}&${period}`)).statusCode).toBe(404);
    expect((await get(userWith(['company_user'], null), `trips?deviceId=${ids.a1}&${period}`)).statusCode).toBe(404);
    expect((await get(testUsers.officer, `trips?deviceId=999999&${period}`)).statusCode).toBe(404);
  });

  it('expands a group to the devices of it and its subgroups', async () => {
    const rows = await json(ReportSummary, testUsers.companyA, `summary?groupId=${ids.groupA}&${period}`);
    expect(rows.map((r) => r.deviceId)).toEqual([ids.a1]);
    const both = await json(ReportSummary, testUsers.analyst, `summary?groupId=${ids.groupB}&deviceId=${ids.a2}&${period}`);
    expect(both.map((r) => r.deviceId)).toEqual([ids.a2, ids.b1]);
  });

  for (const endpoint of reportsEndpoints) runCommonRouteTests({ app: () => svc.app, endpoint });
});
