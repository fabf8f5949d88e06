import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { apiPosition, DeviceInput, EventMessage, PositionMessage, type PositionMessageInput, positionId } from '@corridor/contracts';
import { insertEvents, insertPositions, queryEvents, queryPositionHistory, toApiEvent, type Analytics } from '@corridor/platform';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type OpsApiService } from '../app';
import { defaultReportSettings } from './settings';
import { eventually } from '@corridor/platform/testing/eventually';
import { offlineGeocoder } from '@corridor/geodata/reverse-geocoder';

/** The address the reports give a point (the gazetteer's, hand-checked in packages/geodata). */
const addressOf = (latitude: number | null, longitude: number | null) =>
  latitude === null || longitude === null ? null : offlineGeocoder().reverse(latitude, longitude).address;

/**
 * The reports stream: served over real HTTP (inject would buffer the whole body) from ClickHouse
 * read in pages of PAGE_ROWS rows, with the analytics client watched: which queries start, and
 * whether each answer's stream is closed again.
 */
const PAGE_ROWS = 1000;
const BIG_DEVICES = 4;
const BIG_FIXES = 25_000; // per device: 25 pages each, 100,000 rows of CSV (about 23 MiB)
const T0 = Date.parse('2026-04-01T00:00:00Z');
const END = T0 + 4 * 86_400_000;
const period = `from=${new Date(T0).toISOString()}&to=${new Date(END).toISOString()}`;

let adapters: TestAdapters;
let svc: OpsApiService;
let base = '';
const big: number[] = [];
let odd = 0;
const watch = { started: 0, closed: 0, pages: 0 };
/** The server's responses, latest last (whether one waits for its client to read: writableNeedDrain). */
const responses: ServerResponse[] = [];

/** The analytics store with its exec calls counted (started, and answers closed or refused). */
function watched(ch: Analytics): Analytics {
  const exec: Analytics['client']['exec'] = async (p) => {
    watch.started++;
    if (/ORDER BY device_id, fix_time/.test(p.query)) watch.pages++;
    try {
      const r = await ch.client.exec(p);
      r.stream.once('close', () => watch.closed++);
      return r;
    } catch (err) {
      watch.closed++;
      throw err;
    }
  };
  const client = new Proxy(ch.client, {
    get: (target, key) => {
      if (key === 'exec') return exec;
      const v = Reflect.get(target, key) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  return { ...ch, client };
}

const fix = (deviceId: number, i: number, patch: Partial<PositionMessageInput> = {}): PositionMessage =>
  PositionMessage.parse({
    id: positionId(deviceId, T0 + i * 10_000),
    deviceId,
    uniqueId: `strm-${deviceId}`,
    protocol: 'teltonika',
    fixTime: new Date(T0 + i * 10_000).toISOString(),
    serverTime: new Date(T0 + i * 10_000 + 1500).toISOString(),
    valid: true,
    latitude: -1.2921 + i * 1e-5,
    longitude: 36.8219 + i * 1.3e-5,
    speed: (i % 70) * 0.731,
    course: (i * 7) % 360,
    ignition: i % 3 !== 0,
    attributes: { hours: i * 10_000, fuelUsed: i / 8 },
    ...patch,
  });

const get = async (path: string, opts: { signal?: AbortSignal } = {}) =>
  request(`${base}/${path}`, { headers: await asUser(testUsers.officer), signal: opts.signal });
beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({
    ...adapters,
    analytics: watched(adapters.analytics),
    logger: adapters.logger,
    identitySecret: TEST_IDENTITY_SECRET,
    reports: { ...defaultReportSettings(), pageRows: PAGE_ROWS },
  });
  svc.app.server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => responses.push(res));
  await svc.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(svc.app.server.address() as { port: number }).port}/api/reports`;
  const put = insertPositions(adapters.analytics);
  for (let d = 0; d < BIG_DEVICES; d++) {
    const id = (await svc.devices.create(DeviceInput.parse({ name: `Streamer ${d}`, uniqueId: `strm-big-${d}` }))).id;
    big.push(id);
    await put(Array.from({ length: BIG_FIXES }, (_, i) => fix(id, i)));
  }
  // one device with every kind of value the route report writes: nulls, quotes, commas, line breaks, unicode
  odd = (await svc.devices.create(DeviceInput.parse({ name: 'Odd, "quoted" truck', uniqueId: 'strm-odd' }))).id;
  const oddAttributes = { note: 'line\nbreak, "quoted"', ünï: 'Mombasa–Malaba', flag: false, none: null, '7': 1.5e-7 };
  await put([
    fix(odd, 0, {
      altitude: 1661.5,
      accuracy: 4,
      satellites: 11,
      hdop: 0.8,
      odometer: 120_500.25,
      power: 27.9,
      battery: 4.1,
      alarm: 'sos',
      rawFrameId: 'raw-1',
    }),
    fix(odd, 1, { ignition: null, attributes: oddAttributes }),
    fix(odd, 2, { deviceTime: new Date(T0 + 5000).toISOString(), crcValid: false, alarm: 'overspeed,powerCut' }),
  ]);
  // the same position written twice: the first arrival (earliest server time) is the one kept
  await put([fix(odd, 1, { ignition: null, attributes: oddAttributes, speed: 9.5, serverTime: new Date(T0 + 10_500).toISOString() })]);
  await insertEvents(adapters.analytics)([
    EventMessage.parse({
      id: 'e1',
      type: 'alarm',
      eventTime: new Date(T0 + 1000).toISOString(),
      deviceId: odd,
      attributes: { alarm: 'sos', note: 'a "b", c' },
    }),
    EventMessage.parse({
      id: 'e2',
      type: 'geofenceEnter',
      eventTime: new Date(T0 + 2000).toISOString(),
      deviceId: odd,
      geofenceId: 'g-9',
      latitude: -1.3,
      longitude: 36.9,
    }),
  ]);
}, 180_000); // a ceiling: 100,000 positions into chDB took over 60 s at load 35
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

describe('report output is the stored data, field for field, with the addresses of the points', () => {
  it("route JSON is exactly the JSON of the stored positions as the API's Position (apiPosition of the zod-parsed read)", async () => {
    const res = await get(`route?deviceId=${odd}&${period}`);
    expect(res.statusCode).toBe(200);
    const expected = await queryPositionHistory(adapters.analytics)({
      deviceIds: [odd],
      from: new Date(T0),
      to: new Date(END),
      limit: 100,
    });
    expect(expected).toHaveLength(3);
    expect(expected[1]!.speed).toBe(9.5);
    expect(await res.body.text()).toBe(
      JSON.stringify(expected.map((p) => apiPosition({ ...p, address: addressOf(p.latitude, p.longitude) }))),
    );
  });

  it('route CSV is what csv-stringify writes for those positions, as people read them (words, km/h, km, rounded, UTC here)', async () => {
    const res = await get(`route?deviceId=${odd}&${period}&format=csv`);
    const positions = await queryPositionHistory(adapters.analytics)({
      deviceIds: [odd],
      from: new Date(T0),
      to: new Date(END),
      limit: 100,
    });
    const r = (v: number | null | undefined, digits: number) =>
      v === null || v === undefined ? null : Math.round(v * 10 ** digits) / 10 ** digits;
    const yesNo = (v: boolean | null | undefined) => (v === null || v === undefined ? null : v ? 'yes' : 'no');
    const time = (iso: string) => new Date(Math.round(Date.parse(iso) / 1000) * 1000).toISOString().slice(0, 19).replace('T', ' ');
    const columns: [string, (p: PositionMessage) => unknown][] = [
      ['Device', () => 'Odd, "quoted" truck'],
      ['Time (UTC)', (p) => time(p.fixTime)],
      ['Address', (p) => addressOf(p.latitude, p.longitude)],
      ['Latitude', (p) => r(p.latitude, 6)],
      ['Longitude', (p) => r(p.longitude, 6)],
      ['Speed (km/h)', (p) => r(p.speed * 1.852, 1)],
      ['Course (°)', (p) => r(p.course, 3)],
      ['Altitude (m)', (p) => r(p.altitude, 3)],
      ['Valid fix', (p) => yesNo(p.valid)],
      ['Satellites', (p) => p.satellites],
      ['HDOP', (p) => r(p.hdop, 3)],
      ['Ignition', (p) => yesNo(p.ignition)],
      ['Odometer (km)', (p) => r(p.odometer === null ? null : p.odometer / 1000, 2)],
      ['Power (V)', (p) => r(p.power, 3)],
      ['Battery', (p) => r(p.battery, 3)],
      ['Alarm', (p) => p.alarm],
      ['Protocol', (p) => p.protocol],
      ['Received (UTC)', (p) => time(p.serverTime)],
      ['Device id', (p) => p.deviceId],
      ['Position id', (p) => p.id],
      ['Other values', (p) => JSON.stringify(p.attributes)],
    ];
    expect(await res.body.text()).toBe(
      stringify(
        positions.map((p) => columns.map(([, get]) => get(p))),
        { header: true, columns: columns.map(([h]) => h) },
      ),
    );
  });

  it('route xlsx holds the same rows', async () => {
    const res = await get(`route?deviceId=${odd}&${period}&format=xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.body.arrayBuffer()) as never);
    const sheet = wb.getWorksheet('route')!;
    expect(sheet.rowCount).toBe(4);
    const row = (sheet.getRow(3).values as unknown[]).slice(1);
    expect(row[0]).toBe('Odd, "quoted" truck');
    expect((row[1] as Date).toISOString()).toBe(new Date(T0 + 10_000).toISOString());
    expect(row[2]).toBe(addressOf(-1.29209, 36.821913));
    expect(row[5]).toBe(17.6); // 9.5 kn
    expect(row[18]).toBe(odd);
    expect(JSON.parse(row[20] as string)).toEqual({
      note: 'line\nbreak, "quoted"',
      ünï: 'Mombasa–Malaba',
      flag: false,
      none: null,
      '7': 1.5e-7,
    });
  });

  it("events JSON is exactly the JSON of the stored events in the API's (Traccar's) shape", async () => {
    const res = await get(`events?deviceId=${odd}&${period}`);
    const expected = await queryEvents(adapters.analytics)({ deviceIds: [odd], from: new Date(T0), to: new Date(END), limit: 100 });
    expect(expected.map((e) => e.latitude)).toEqual([null, -1.3]);
    expect(await res.body.text()).toBe(
      JSON.stringify(expected.map((e) => ({ ...toApiEvent(e), address: addressOf(e.latitude, e.longitude) }))),
    );
  });
});

describe('reports stream', () => {
  it('answers before the report is read through, and reads on only as the client reads', async () => {
    const before = watch.pages;
    const pages = (BIG_DEVICES * BIG_FIXES) / PAGE_ROWS;
    const res = await get(`route?${big.map((id) => `deviceId=${id}`).join('&')}&${period}&format=csv`);
    expect(res.statusCode).toBe(200);
    const body = res.body[Symbol.asyncIterator]();
    const first = await body.next();
    expect(String(first.value)).toMatch(/^Device,Time \(UTC\),/);
    expect(watch.pages - before).toBeLessThan(pages / 2);
    // the client stops reading: once the socket buffers are full the server waits for it to read on,
    // and asks for no further page meanwhile
    await eventually('the server waiting for the client to read', () => responses.at(-1)?.writableNeedDrain === true);
    expect(watch.pages - before).toBeLessThan(pages * 0.6);
    let bytes = String(first.value).length;
    let lines = String(first.value).split('\n').length - 1;
    for (let n = await body.next(); !n.done; n = await body.next()) {
      const chunk = String(n.value);
      bytes += chunk.length;
      lines += chunk.split('\n').length - 1;
    }
    expect(lines).toBe(1 + BIG_DEVICES * BIG_FIXES);
    expect(bytes).toBeGreaterThan(15 * 2 ** 20);
    expect(watch.pages - before).toBeGreaterThanOrEqual(pages);
    await eventually('every analytics answer closed', () => watch.closed === watch.started);
    expect(watch.closed).toBe(watch.started);
  });

  for (const format of ['csv', 'json', 'xlsx']) {
    it(`stops reading ClickHouse when the client goes away mid-download (${format}), and keeps serving`, async () => {
      const before = watch.pages;
      const gone = new AbortController();
      const res = await get(`route?${big.map((id) => `deviceId=${id}`).join('&')}&${period}&format=${format}`, { signal: gone.signal });
      expect(res.statusCode).toBe(200);
      const body = res.body[Symbol.asyncIterator]();
      await body.next();
      gone.abort();
      await expect(body.next()).rejects.toThrow();
      await eventually('every analytics answer closed', () => watch.closed === watch.started);
      expect(watch.closed).toBe(watch.started); // every query answered or cancelled, every answer closed
      // and keeps serving: a report after it, through the same analytics client (a page the abandoned
      // report still asked for would be counted before this answer)
      const after = await get(`summary?deviceId=${big[0]}&${period}`);
      expect(after.statusCode).toBe(200);
      expect((await after.body.json()) as unknown[]).toHaveLength(1);
      expect(watch.pages - before).toBeLessThan((BIG_DEVICES * BIG_FIXES) / PAGE_ROWS / 2);
      expect(watch.closed).toBe(watch.started);
    });
  }

  it('leaves nothing open when the client of a trips report goes away', async () => {
    const gone = new AbortController();
    const res = await get(`trips?${big.map((id) => `deviceId=${id}`).join('&')}&${period}`, { signal: gone.signal });
    gone.abort();
    await res.body.text().catch(() => undefined);
    await eventually('every analytics answer closed', () => watch.closed === watch.started);
    expect(watch.closed).toBe(watch.started);
    const after = await get(`trips?deviceId=${big[1]}&${period}`);
    expect(after.statusCode).toBe(200);
    expect(Array.isArray(await after.body.json())).toBe(true);
  });
});
