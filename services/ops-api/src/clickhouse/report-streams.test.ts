import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventMessageInput, PositionMessageInput } from '@corridor/contracts';
import { PositionMessage, positionId } from '@corridor/contracts';
import type { Analytics } from '@corridor/platform';
import { insertEvents, insertPositions, migrateAnalytics } from '@corridor/platform';
import { streamReportFixes, streamRouteRows } from './report-positions';
import { streamEvents } from './report-events';
import { printedFloat32, streamTracks, type TrackChunk } from './report-track';
import { emptyTestAnalytics } from '@corridor/platform/testing/test-adapters';
import { eventually } from '@corridor/platform/testing/eventually';
import { allItems } from '../../test/batches';

// CLICKHOUSE_URL's server when set, else this process's chDB (a database of its own)
const variants = [
  { name: process.env.CLICKHOUSE_URL ? 'clickhouse' : 'chdb', create: () => emptyTestAnalytics(`reports_${randomUUID().slice(0, 8)}`) },
];
const T0 = Date.parse('2026-03-01T10:00:00Z');

const pos = (deviceId: number, s: number, patch: Partial<PositionMessageInput> = {}): PositionMessage =>
  PositionMessage.parse({
    id: positionId(deviceId, T0 + s * 1000),
    deviceId,
    uniqueId: `dev${deviceId}`,
    protocol: 'osmand',
    fixTime: new Date(T0 + s * 1000).toISOString(),
    serverTime: new Date(T0 + s * 1000 + 1000).toISOString(),
    valid: true,
    latitude: -1.29,
    longitude: 36.82 + s / 1e4,
    speed: 20,
    course: 90,
    ...patch,
  });
const period = { from: new Date(T0), to: new Date(T0 + 3600_000) };

describe.each(variants)('report streams: $name', ({ create }) => {
  let ch: Analytics;
  afterAll(async () => {
    await ch?.close();
  });

  it('streams fixes in device and time order across pages, keeping the first arrival of a resent fix', async () => {
    ch = await create();
    await migrateAnalytics(ch);
    const put = insertPositions(ch);
    await put([3, 1, 2].flatMap((d) => [0, 10, 20, 30, 40].map((s) => pos(d, s))));
    // resent fix: same (device, fix time), arriving later with other values: the first arrival stays (ReplacingMergeTree(arrival_rank))
    await put([pos(1, 20, { speed: 55, serverTime: new Date(T0 + 60_000).toISOString() })]);
    await put([pos(1, -10), pos(1, 3601)]); // outside the period
    await put([
      pos(2, 50, {
        odometer: 12_345,
        ignition: false,
        attributes: { hours: 7_200_000, fuelUsed: 12.5, fuel: 40, fuelLevel: 55, driverUniqueId: 'D1', motion: true },
      }),
    ]);

    for (const pageRows of [2, 3, 1000, undefined]) {
      const rows = await allItems(streamReportFixes(ch)({ deviceIds: [1, 2], ...period, pageRows }));
      expect(
        rows.map((r) => `${r.deviceId}@${(r.time - T0) / 1000}`),
        `pageRows ${pageRows}`,
      ).toEqual(['1@0', '1@10', '1@20', '1@30', '1@40', '2@0', '2@10', '2@20', '2@30', '2@40', '2@50']);
      expect(rows[2]!.speed).toBe(20);
    }
    const rows = await allItems(streamReportFixes(ch)({ deviceIds: [2], ...period }));
    expect(rows[0]).toMatchObject({
      id: positionId(2, T0),
      ignition: null,
      odometer: null,
      hours: null,
      motion: null,
      driverUniqueId: null,
      valid: true,
    });
    expect(rows[5]).toMatchObject({
      odometer: 12_345,
      ignition: false,
      hours: 7_200_000,
      fuelUsed: 12.5,
      fuel: 40,
      fuelLevel: 55,
      driverUniqueId: 'D1',
      motion: true,
    });
    expect(await allItems(streamReportFixes(ch)({ deviceIds: [], ...period }))).toEqual([]);
  });

  it('streams whole positions for the route report, as tuples in column order', async () => {
    for (const pageRows of [4, 5, 7, undefined]) {
      const rows = await allItems(streamRouteRows(ch)({ deviceIds: [3, 1], ...period, pageRows, batchRows: 3 }));
      expect(
        rows.map((r) => `${r[0]}@${(r[1] - T0) / 1000}`),
        `pageRows ${pageRows}`,
      ).toEqual(['1@0', '1@10', '1@20', '1@30', '1@40', '3@0', '3@10', '3@20', '3@30', '3@40']);
      expect(rows[2]).toEqual([
        1,
        T0 + 20_000,
        T0 + 21_000,
        positionId(1, T0 + 20_000),
        'dev1',
        'osmand',
        T0 + 20_000,
        true,
        -1.29,
        36.822,
        20,
        90,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        true,
        null,
        '{}',
      ]);
    }
    const [withCounters] = await allItems(streamRouteRows(ch)({ deviceIds: [2], from: new Date(T0 + 50_000), to: period.to }));
    expect(withCounters).toEqual([
      2,
      T0 + 50_000,
      T0 + 51_000,
      positionId(2, T0 + 50_000),
      'dev2',
      'osmand',
      T0 + 50_000,
      true,
      -1.29,
      36.825,
      20,
      90,
      null,
      null,
      null,
      null,
      false,
      12_345,
      null,
      null,
      null,
      true,
      null,
      JSON.stringify({ hours: 7_200_000, fuelUsed: 12.5, fuel: 40, fuelLevel: 55, driverUniqueId: 'D1', motion: true }),
    ]);
  });

  it('reads a device with more rows than a page alone, in keyset pages, and several small devices in one page', async () => {
    const queries: string[] = [];
    const spy: Analytics = {
      ...ch,
      client: {
        ...ch.client,
        exec: (p: Parameters<Analytics['client']['exec']>[0]) => (queries.push(p.query), ch.client.exec(p)),
      } as Analytics['client'],
    };
    await allItems(streamReportFixes(spy)({ deviceIds: [1, 2, 3], ...period, pageRows: 5 })); // 5, 6 and 5 rows (device 1 has a duplicate)
    const pages = queries.filter((q) => !q.includes('count()'));
    expect(queries.filter((q) => q.includes('count()'))).toHaveLength(1);
    expect(pages.filter((q) => q.includes('LIMIT')).length).toBeGreaterThanOrEqual(2); // device 1 (6 stored rows) and device 2 alone
    queries.length = 0;
    await allItems(streamReportFixes(spy)({ deviceIds: [1, 2, 3], ...period, pageRows: 1000 }));
    expect(queries.filter((q) => !q.includes('count()'))).toHaveLength(1);
    expect(queries.some((q) => q.includes('LIMIT'))).toBe(false);
  });

  it('stops reading when the consumer stops or the signal aborts, and cancels the query under way', async () => {
    const started: string[] = [];
    const destroyed: string[] = [];
    const spy: Analytics = {
      ...ch,
      client: {
        ...ch.client,
        exec: async (p: Parameters<Analytics['client']['exec']>[0]) => {
          started.push(p.query);
          const r = await ch.client.exec(p);
          r.stream.once('close', () => destroyed.push(p.query));
          return r;
        },
      } as Analytics['client'],
    };
    for await (const batch of streamRouteRows(spy)({ deviceIds: [1, 2, 3], ...period, pageRows: 5, batchRows: 2 })) {
      expect(batch).toHaveLength(2);
      break; // the consumer stops after the first batch
    }
    // the loop has returned the generator: every answer's stream closes (close events come a tick later)
    await eventually("every answer's stream closed", () => destroyed.length === started.length);
    const pages = started.filter((q) => !q.includes('count()'));
    expect(pages.length).toBeLessThanOrEqual(2); // the page being read (and no more than one asked ahead)

    const stop = new AbortController();
    started.length = 0;
    const read = (async () => {
      for await (const _ of streamReportFixes(spy)({ deviceIds: [1, 2, 3], ...period, pageRows: 5, batchRows: 1, signal: stop.signal })) {
        stop.abort(new Error('client gone'));
      }
    })();
    await expect(read).rejects.toThrow();
    expect(started.filter((q) => !q.includes('count()')).length).toBeLessThanOrEqual(2);
  });

  it('streams events by device and time, filtered by type and alarm, across pages', async () => {
    const ev = (id: string, deviceId: number, s: number, type: EventMessageInput['type'], attributes: Record<string, unknown> = {}) => ({
      id,
      type,
      eventTime: new Date(T0 + s * 1000).toISOString(),
      deviceId,
      positionId: null,
      journeyId: null,
      geofenceId: null,
      latitude: null,
      longitude: null,
      attributes,
    });
    await insertEvents(ch)([
      ev('a', 2, 5, 'alarm', { alarm: 'sos' }),
      ev('b', 1, 9, 'alarm', { alarm: 'overspeed,powerCut' }),
      ev('c', 1, 3, 'geofenceEnter'),
      ev('d', 1, 9, 'deviceStopped'),
      ev('e', 1, 7200, 'alarm', { alarm: 'sos' }),
    ]);
    await insertEvents(ch)([ev('b', 1, 9, 'alarm', { alarm: 'overspeed,powerCut' })]); // redelivered
    const read = (q: { types?: string[]; alarms?: string[]; pageRows?: number }) =>
      allItems(streamEvents(ch)({ deviceIds: [1, 2], ...period, ...q })).then((es) => es.map((e) => e.id));
    expect(await read({ pageRows: 1 })).toEqual(['c', 'b', 'd', 'a']);
    expect(await read({})).toEqual(['c', 'b', 'd', 'a']);
    expect(await read({ types: ['alarm'] })).toEqual(['b', 'a']);
    expect(await read({ alarms: ['powerCut'] })).toEqual(['b']);
    expect(await read({ types: ['deviceStopped', 'geofenceEnter'], pageRows: 1 })).toEqual(['c', 'd']);
  });
  it('streams the lean track: a state record beside the fix of its second, ids derived from device, second and kind; a stored id that is not refuses the read', async () => {
    const put = insertPositions(ch);
    const T1 = T0 + 7200_000;
    const state = (d: number, s: number) =>
      pos(d, 7200 + s, { id: positionId(d, T1 + s * 1000, 'state'), ignition: true, attributes: { outdated: true, motion: false } });
    await put([pos(4, 7200), state(4, 0), pos(4, 7210, { ignition: false }), state(4, 10)]);
    await put([pos(4, 7200, { speed: 99, serverTime: new Date(T1 + 60_000).toISOString() })]); // the fix again, later: the first arrival stays
    const tracked = async (pageRows?: number) => {
      const chunks: TrackChunk[] = [];
      for await (const b of streamTracks(ch)({ deviceIds: [4], from: new Date(T1), to: new Date(T1 + 60_000), pageRows }))
        chunks.push(...b);
      return chunks.flatMap((c) =>
        Array.from({ length: c.length }, (_, i) => [c.deviceId, c.time[i], c.id[i], c.speed[i], c.ignition[i], c.motion[i]]),
      );
    };
    const want = [
      [4, T1, positionId(4, T1), 20, -1, -1],
      [4, T1, positionId(4, T1, 'state'), 20, 1, 0],
      [4, T1 + 10_000, positionId(4, T1 + 10_000), 20, 0, -1],
      [4, T1 + 10_000, positionId(4, T1 + 10_000, 'state'), 20, 1, 0],
    ];
    for (const pageRows of [1, 2, 3, undefined]) expect(await tracked(pageRows), `pageRows ${pageRows}`).toEqual(want);
    // a row whose id names another second (written around insertPositions, which derives ids): the read fails loudly
    await put([pos(5, 7200, { id: positionId(5, T1 + 1000) })]);
    const bad = streamTracks(ch)({ deviceIds: [5], from: new Date(T1), to: new Date(T1 + 60_000) });
    await expect(allItems(bad)).rejects.toThrow(/whose id is not its device, whole-second fix time and kind/);
  });

  it("reads the track's Float32 speeds as the store prints them, the value every other report path reads", async () => {
    // speeds as devices give them (knots of whole and tenths of km/h), random ones, and edges of Float32's decimals
    let seed = 7;
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const xs = [
      ...Array.from({ length: 2000 }, (_, i) => i / 10 / 1.852),
      ...Array.from({ length: 3000 }, () => rnd() * 869),
      ...Array.from({ length: 500 }, () => rnd() * 10 ** Math.floor(rnd() * 12 - 6)),
      0,
      0.1,
      1e-7,
      16_777_217,
      3.4e38,
      1.17549435e-38,
      40_141.0625,
      0.5,
      2.5,
      8.125,
    ];
    const res = await ch.client.query({
      query: `SELECT toString(toFloat32(x)) FROM (SELECT arrayJoin([${xs.map((x) => `toFloat64('${x}')`).join(', ')}]) AS x)`,
      format: 'JSONCompactEachRow',
    });
    const printed = ((await res.json()) as [string][]).map(([text]) => Number(text));
    const mine = xs.map((x) => printedFloat32(Math.fround(x)));
    const differ = xs.map((x, i) => [x, mine[i], printed[i]]).filter(([, a, b]) => a !== b);
    expect(differ.slice(0, 10)).toEqual([]);
    expect(mine).toEqual(printed);
  });
});
