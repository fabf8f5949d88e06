import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import {
  CombinedReportItem,
  DeviceInput,
  Event,
  EventMessage,
  PositionMessage,
  positionId,
  ReportGeofence,
  reportsEndpoints,
  XLSX_MEDIA_TYPE,
  type EventMessageInput,
} from '@corridor/contracts';
import { eventNumericId, insertEvents, insertPositions, type Identity } from '@corridor/platform';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type OpsApiService } from '../app';
import { geofenceOwner } from '../../test/geofence-owner';
import { geofenceVisits } from './geofences';
import { buildTrack, trackPositions } from './synthetic-track';

let adapters: TestAdapters;
let svc: OpsApiService;
let fences: Awaited<ReturnType<typeof geofenceOwner>>;
const ids = { a: 0, a2: 0, b: 0 };
const T0 = Date.parse('2026-06-01T08:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();
const period = `from=${encodeURIComponent('2026-06-01T00:00:00Z')}&to=${encodeURIComponent('2026-06-02T00:00:00Z')}`;
const fixes = buildTrack({
  start: new Date(T0),
  origin: [39.66, -4.05],
  everySeconds: 60,
  segments: [{ kind: 'drive', seconds: 3600, kmh: 40 }],
});

/** geofenceEnter/Exit of one device: [type, seconds, geofence]. */
const visits = (deviceId: number, list: ['geofenceEnter' | 'geofenceExit', number, string][]): EventMessageInput[] =>
  list.map(([type, s, geofenceId], i) => ({
    id: `gf-${deviceId}-${i}`,
    type,
    eventTime: at(s),
    deviceId,
    geofenceId,
    positionId: positionId(deviceId, T0 + s * 1000),
  }));

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  fences = await geofenceOwner([7, 9]);
  svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET, geofenceUrl: fences.url });
  const device = (name: string, companyId: number) =>
    svc.devices.create(DeviceInput.parse({ name, uniqueId: `gc-${name.replace(/\W/g, '')}`, companyId }));
  ids.a = (await device('KDA 001A', 101)).id;
  ids.a2 = (await device('KDA 002A', 101)).id;
  ids.b = (await device('KDB 001B', 202)).id;
  const put = insertPositions(adapters.analytics);
  await put(trackPositions(ids.a, 'gc-KDA001A', fixes).map((p) => PositionMessage.parse(p)));
  await put(trackPositions(ids.b, 'gc-KDB001B', fixes.slice(0, 10)).map((p) => PositionMessage.parse(p)));
  const events: EventMessageInput[] = [
    // a: port 7 from 10 to 20 min, border post 9 nested inside from 12 to 15 min; a second port visit still open at the end
    ...visits(ids.a, [
      ['geofenceEnter', 600, '7'],
      ['geofenceEnter', 720, '9'],
      ['geofenceExit', 900, '9'],
      ['geofenceExit', 1200, '7'],
      ['geofenceEnter', 3000, '7'],
    ]),
    {
      id: 'gc-alarm',
      type: 'alarm',
      eventTime: at(300),
      deviceId: ids.a,
      positionId: positionId(ids.a, T0 + 300_000),
      attributes: { alarm: 'sos' },
    },
    { id: 'gc-moving', type: 'deviceMoving', eventTime: at(60), deviceId: ids.a, positionId: positionId(ids.a, T0 + 60_000) },
    { id: 'gc-loose', type: 'alarm', eventTime: at(400), deviceId: ids.a, attributes: { alarm: 'general' } }, // tied to no position
    ...visits(ids.b, [
      ['geofenceEnter', 60, '7'],
      ['geofenceExit', 120, '7'],
    ]),
  ];
  await insertEvents(adapters.analytics)(events.map((e) => EventMessage.parse(e)));
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
  await fences?.close();
});

const get = async (user: Identity, url: string, headers: Record<string, string> = {}) =>
  svc.app.inject({ method: 'GET', url: `/api/reports/${url}`, headers: { ...(await asUser(user)), ...headers } });
async function json<T extends z.ZodTypeAny>(schema: T, user: Identity, url: string): Promise<z.infer<T>[]> {
  const res = await get(user, url);
  expect(res.statusCode, res.body).toBe(200);
  return z.array(schema).parse(res.json());
}

describe('geofence visits (Traccar GeofenceReportProvider)', () => {
  const device = { id: 1, name: 'X', attributes: {} };
  const e = (type: 'geofenceEnter' | 'geofenceExit', s: number, geofenceId: string | null) =>
    EventMessage.parse({ id: `${type}${s}`, type, eventTime: at(s), deviceId: 1, geofenceId });
  const run = (events: EventMessage[], only?: number[]) => {
    const r = geofenceVisits(device, only && new Set(only));
    return [...events.flatMap((x) => r.push(x)), ...r.finish()].map((v) => [v.geofenceId, v.startTime, v.endTime]);
  };

  it('pairs an enter with the next exit of its geofence; a repeated enter replaces the open one; an open visit is left out', () => {
    expect(run([e('geofenceEnter', 0, '1'), e('geofenceEnter', 10, '1'), e('geofenceExit', 20, '1'), e('geofenceEnter', 30, '1')])).toEqual(
      [[1, at(10), at(20)]],
    );
  });

  it('ignores an exit without an enter, other geofences when asked for some, and events without a geofence', () => {
    expect(
      run(
        [
          e('geofenceExit', 5, '2'),
          e('geofenceEnter', 6, '2'),
          e('geofenceEnter', 7, '3'),
          e('geofenceExit', 8, '3'),
          e('geofenceExit', 9, '2'),
        ],
        [2],
      ),
    ).toEqual([[2, at(6), at(9)]]);
    expect(run([e('geofenceEnter', 1, null), e('geofenceExit', 2, null)])).toEqual([]);
  });
});

describe('GET /reports/geofences', () => {
  it("answers each device's visits by start time, in Traccar's fields", async () => {
    const rows = await json(ReportGeofence, testUsers.officer, `geofences?deviceId=${ids.a}&deviceId=${ids.b}&${period}`);
    expect(rows.map((r) => [r.deviceId, r.geofenceId, r.startTime, r.endTime, r.duration])).toEqual([
      [ids.b, 7, at(60), at(120), 60_000],
      [ids.a, 7, at(600), at(1200), 600_000],
      [ids.a, 9, at(720), at(900), 180_000],
    ]);
    expect(rows[1]!.deviceName).toBe('KDA 001A');
    const only9 = await json(ReportGeofence, testUsers.officer, `geofences?deviceId=${ids.a}&geofenceId=9&${period}`);
    expect(only9.map((r) => r.geofenceId)).toEqual([9]);
    // a geofence the geofence service does not show the caller answers as an unknown one
    const hidden = await get(testUsers.officer, `geofences?deviceId=${ids.a}&geofenceId=8&${period}`);
    expect(hidden.statusCode, hidden.body).toBe(404);
  });

  it('answers CSV and xlsx', async () => {
    const csv = await get(testUsers.officer, `geofences?deviceId=${ids.a}&${period}&format=csv`);
    expect(csv.headers['content-disposition']).toBe('attachment; filename="geofences-2026-06-01-2026-06-02.csv"');
    // headed in words, times on the reader's clock (UTC here) as people write them
    const onClock = (iso: string) => iso.replace('T', ' ').slice(0, 19);
    expect((parse(csv.body, { columns: true }) as Record<string, string>[]).map((r) => [r['Geofence id'], r['Entered (UTC)']])).toEqual([
      ['7', onClock(at(600))],
      ['9', onClock(at(720))],
    ]);
    const xlsx = await get(testUsers.officer, `geofences?deviceId=${ids.a}&${period}`, { accept: XLSX_MEDIA_TYPE });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as never);
    expect(wb.getWorksheet('geofences')!.rowCount).toBe(3);
  });

  it("keeps company users to their company's devices", async () => {
    expect(await json(ReportGeofence, testUsers.companyA, `geofences?deviceId=${ids.a}&${period}`)).toHaveLength(2);
    const foreign = await get(testUsers.companyA, `geofences?deviceId=${ids.b}&${period}`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});

describe('GET /reports/combined', () => {
  it('gives per device the route, the events tied to a position but deviceMoving, and the positions events are tied to', async () => {
    const [a, a2, ...rest] = await json(CombinedReportItem, testUsers.officer, `combined?deviceId=${ids.a2}&deviceId=${ids.a}&${period}`);
    expect(rest).toEqual([]);
    expect(a!.deviceId).toBe(ids.a);
    expect(a!.route).toHaveLength(fixes.length);
    expect(a!.route[0]).toEqual([fixes[0]!.lonLat[0], fixes[0]!.lonLat[1]]);
    expect(a!.events.map((e) => e.id)).toEqual(['gc-alarm', ...[0, 1, 2, 3, 4].map((i) => `gf-${ids.a}-${i}`)].map(eventNumericId));
    // the positions of every event of the period, deviceMoving's too (Traccar's eventPositions)
    expect(a!.positions.map((p) => p.fixTime)).toEqual([at(60), at(300), at(600), at(720), at(900), at(1200), at(3000)]);
    expect(a2).toEqual({ deviceId: ids.a2, route: [], events: [], positions: [] });
  });

  it('is JSON only, and keeps company users to their own devices', async () => {
    const csv = await get(testUsers.officer, `combined?deviceId=${ids.a}&${period}`, { accept: 'text/csv' });
    expect(csv.headers['content-type']).toMatch(/^application\/json/);
    expect((await get(testUsers.companyB, `combined?deviceId=${ids.a}&${period}`)).statusCode).toBe(404);
    expect((await json(CombinedReportItem, testUsers.companyB, `combined?deviceId=${ids.b}&${period}`))[0]!.route).toHaveLength(10);
  });
});

describe('GET /reports/events with type=allEvents', () => {
  it("gives every type, as Traccar's web app asks for it", async () => {
    const all = await json(Event, testUsers.officer, `events?deviceId=${ids.a}&${period}&type=allEvents`);
    expect(all).toHaveLength(8);
    expect(await json(Event, testUsers.officer, `events?deviceId=${ids.a}&${period}&type=allEvents&type=alarm`)).toHaveLength(8);
  });
});

for (const endpoint of reportsEndpoints.filter((e) => e.id === 'reports.geofences' || e.id === 'reports.combined')) {
  runCommonRouteTests({ app: () => svc.app, endpoint });
}
