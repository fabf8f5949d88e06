import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionMessage, positionId, type PositionMessageInput, type ReportStop, type ReportTrip } from '@corridor/contracts';
import { insertPositions, migrationsFolder, touchTrackDays } from '@corridor/platform';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { queryStoredAt, streamReportFixes, type ReportFixRow } from '../clickhouse/report-positions';
import { TRACK_COLUMNS, streamTracks, type StoredRuns, type TrackChunk } from '../clickhouse/report-track';
import { computeTrackRuns, freshRunDays, trackRunsSource, trackRunsSql } from '../clickhouse/report-track-runs';
import { deletePositions } from '../clickhouse/position-delete';
import { perDevice } from './device-runs';
import { lcg, randomTrack } from './random-track';
import type { ReportDevice } from './report-devices';
import { defaultReportSettings, type TripThresholds } from './settings';
import { stillRunSpan, trackRuns } from './track-runs';
import { buildTrack, trackPositions } from './synthetic-track';
import { stopItem, stopsRun } from './stops';
import { tripItem, tripsRun } from './trips';
import { allItems } from '../../test/batches';

/**
 * Issue 28: trips and stops read from the stored runs (track_runs, migration 0005) give the same
 * answers, field by field, as the fold over every fix (and the lean track read from the positions
 * is the same track, fix by fix), on random tracks with still runs, redeliveries, state records,
 * gaps and jumps, with and without speeds, with the default and overridden thresholds; on the store
 * (chDB, or ClickHouse where CLICKHOUSE_URL is set). A late fix, a redelivery or a deletion after the
 * runs were computed makes its day read from the positions until the runs are computed again.
 */
let adapters: TestAdapters;
const T0 = Date.parse('2026-03-01T00:00:00Z');
const DAY = 86_400_000;
const defaults = defaultReportSettings().trips;
const IDS = [41, 42, 43, 44];
const devices: ReportDevice[] = IDS.map((id) => ({ id, name: `KCB ${id}`, attributes: {} }));
const byId = new Map(devices.map((d) => [d.id, d]));
// the period starts at midnight and ends mid-day: its last day is read from the positions
const period = { from: new Date(T0), to: new Date(T0 + 6 * DAY + 12 * 3_600_000) };
const source = { deviceIds: IDS, ...period };
const put = (ps: PositionMessageInput[]) => insertPositions(adapters.analytics)(ps.map((p) => PositionMessage.parse(p)));
const speedless = (ps: PositionMessageInput[]) => ps.map((p) => ({ ...p, speed: 0 }));

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  for (const [id, seed] of [
    [41, 51],
    [42, 52],
    [43, 53],
    [44, 54],
  ] as const) {
    const { fixes, again } = randomTrack({ deviceId: id, fixes: 6000, seed, start: T0, counters: id === 41, still: id === 44 ? 0 : 0.7 });
    const each = id === 43 ? speedless : (ps: PositionMessageInput[]) => ps;
    await put(each(fixes));
    await put(each(again));
  }
}, 120_000);
afterAll(async () => {
  await adapters?.close();
});

const spansOf = (t: TripThresholds) => new Map(IDS.map((id) => [id, stillRunSpan(t)! / 1000]));
async function runsFor(t: TripThresholds): Promise<StoredRuns> {
  return { fresh: await freshRunDays(adapters.analytics)(IDS, period.from, period.to), spanSeconds: spansOf(t) };
}
const reference = (kind: 'trips' | 'stops', t: TripThresholds) =>
  allItems(
    perDevice<ReportFixRow, ReportTrip | ReportStop>(streamReportFixes(adapters.analytics)(source), (id) =>
      kind === 'trips' ? tripsRun(byId.get(id)!, t) : stopsRun(byId.get(id)!, t),
    ),
  );
const fromTrack = async (kind: 'trips' | 'stops', t: TripThresholds, runs?: StoredRuns) =>
  allItems(
    trackRuns(streamTracks(adapters.analytics)({ ...source, stillRunSpan: () => stillRunSpan(t), runs, pageRows: 3_000 }), {
      kind,
      thresholdsOf: () => t,
      lookup: (keys) => queryStoredAt(adapters.analytics)(keys),
      item: (id, iv) => (kind === 'trips' ? tripItem(byId.get(id)!, iv, t) : stopItem(byId.get(id)!, iv, t)),
    }),
  );
/** The lean track as plain rows, to compare fix by fix. */
async function track(t: TripThresholds, runs?: StoredRuns): Promise<number[][]> {
  const out: number[][] = [];
  for await (const batch of streamTracks(adapters.analytics)({ ...source, stillRunSpan: () => stillRunSpan(t), runs, pageRows: 3_000 })) {
    for (const c of batch as TrackChunk[]) {
      for (let i = 0; i < c.length; i++)
        out.push([c.deviceId, c.time[i]!, c.id[i]!, c.latitude[i]!, c.longitude[i]!, c.speed[i]!, c.ignition[i]!, c.motion[i]!]);
    }
  }
  return out;
}

function thresholdCases(): TripThresholds[] {
  const rnd = lcg(9);
  const cases: TripThresholds[] = [defaults];
  for (let i = 0; i < 3; i++) {
    cases.push({
      ...defaults,
      minDistance: Math.round(1 + rnd() * (rnd() < 0.5 ? 50 : 1_000)),
      minDuration: Math.round(1 + rnd() * 1_800) * 1000,
      stopGap: Math.round(30 + rnd() * 7_200) * 1000,
    });
  }
  return cases;
}

/** The page plan's count of each device's rows (countSql, the runs not expanded) against the rows the read holds. */
async function expectCountsOfTheRead(label: string, runs: StoredRuns): Promise<void> {
  const source = trackRunsSource(adapters.analytics, period, TRACK_COLUMNS, runs.fresh, runs.spanSeconds);
  const counts = async (query: string) => {
    const rs = await adapters.analytics.client.query({ query, query_params: { ...source.params, ids: IDS }, format: 'JSONCompactEachRow' });
    return (await rs.json<[string | number, string | number]>()).map(([id, n]) => [Number(id), Number(n)]);
  };
  const read = await counts(`SELECT device_id, count() ${source.sql} GROUP BY device_id ORDER BY device_id`);
  expect(read.length, label).toBe(IDS.length);
  expect(await counts(source.countSql), label).toEqual(read);
}

async function expectSameAsEveryFix(label: string): Promise<void> {
  for (const t of thresholdCases()) {
    const runs = await runsFor(t);
    await expectCountsOfTheRead(`${label}: the page plan's counts, ${JSON.stringify(t)}`, runs);
    expect(await track(t, runs), `${label}: the lean track, ${JSON.stringify(t)}`).toEqual(await track(t));
    for (const kind of ['trips', 'stops'] as const) {
      const expected = await reference(kind, t);
      expect(expected.length, `${label} ${kind}`).toBeGreaterThan(10);
      expect(await fromTrack(kind, t, runs), `${label} ${kind}, ${JSON.stringify(t)}`).toEqual(expected);
    }
  }
}

describe('trips and stops from the stored runs', () => {
  it('the migration computes the days stored before it with the same statement as computeTrackRuns', () => {
    const file = readFileSync(join(migrationsFolder(), '0005_track_runs.sql'), 'utf8');
    const flat = (s: string) => s.replace(/\s+/g, ' ').trim();
    expect(flat(file)).toContain(flat(trackRunsSql('{{db}}', '_partition_id = {partition:String}', '0')));
  });

  it('are the same as from every fix, field by field, once the runs are computed (random tracks, random thresholds)', async () => {
    // days touched within the last two minutes are left for a later look (an insert may still be under way)
    expect(await computeTrackRuns(adapters.analytics)()).toBe(0);
    expect(await computeTrackRuns(adapters.analytics)({ settledMs: 0 })).toBeGreaterThanOrEqual(IDS.length * 6);
    const fresh = await freshRunDays(adapters.analytics)(IDS, period.from, period.to);
    // every whole day of the period that has fixes (the last day is partial)
    expect(fresh.length).toBeGreaterThanOrEqual(IDS.length * 2);
    expect(fresh.every((f) => Date.parse(`${f.day}T00:00:00Z`) + DAY <= period.to.getTime())).toBe(true);
    await expectSameAsEveryFix('computed');
  }, 300_000);

  it('a late fix, a redelivery and a deletion make their days stale until computed again, and the answers stay equal', async () => {
    const runsBefore = await freshRunDays(adapters.analytics)(IDS, period.from, period.to);
    const day1 = new Date(T0 + DAY).toISOString().slice(0, 10);
    expect(runsBefore.some((f) => f.deviceId === 42 && f.day === day1)).toBe(true);
    // a late fix far from its neighbours in a computed day of 42 (inserted now, its day ended long ago)
    const late = T0 + DAY + 13 * 3_600_000 + 17_000;
    await put([
      {
        id: positionId(42, late),
        deviceId: 42,
        uniqueId: 'rnd-42',
        protocol: 'teltonika',
        fixTime: new Date(late).toISOString(),
        serverTime: new Date().toISOString(),
        valid: true,
        latitude: -3.5,
        longitude: 38.1,
        speed: 30,
        course: 0,
        attributes: {},
      },
    ]);
    // and a deletion of an hour of 41's second day
    await deletePositions(adapters.analytics)({
      deviceId: 41,
      from: new Date(T0 + DAY + 8 * 3_600_000),
      to: new Date(T0 + DAY + 9 * 3_600_000),
    });
    const stale = await freshRunDays(adapters.analytics)(IDS, period.from, period.to);
    expect(stale.some((f) => f.deviceId === 42 && f.day === day1)).toBe(false);
    expect(stale.some((f) => f.deviceId === 41 && f.day === day1)).toBe(false);
    expect(stale.length).toBe(runsBefore.length - 2);
    await expectSameAsEveryFix('stale');

    expect(await computeTrackRuns(adapters.analytics)({ settledMs: 0 })).toBe(2);
    expect(await freshRunDays(adapters.analytics)(IDS, period.from, period.to)).toEqual(runsBefore);
    await expectSameAsEveryFix('computed again');
  }, 300_000);

  it("computes a day once it has ended, from its positions, when none of its fixes came late (the live day's traffic)", async () => {
    const yesterday = Math.floor(Date.now() / DAY) * DAY - DAY;
    const fixes = buildTrack({
      start: new Date(yesterday + 3_600_000),
      origin: [36.9, -1.3],
      everySeconds: 30,
      segments: [
        { kind: 'stop', seconds: 3600 },
        { kind: 'drive', seconds: 3600, kmh: 50 },
        { kind: 'stop', seconds: 3600 },
      ],
    });
    await put(trackPositions(45, 'trk-45', fixes));
    // stored while its day was today: not marked as late (the marks of this insert removed)
    await adapters.analytics.client.command({ query: `DELETE FROM ${adapters.analytics.database}.track_touched WHERE device_id = 45` });
    const day = new Date(yesterday).toISOString().slice(0, 10);
    const whole = { from: new Date(yesterday), to: new Date(yesterday + DAY - 1) };
    expect(await freshRunDays(adapters.analytics)([45], whole.from, whole.to)).toEqual([]);
    expect(await computeTrackRuns(adapters.analytics)({ settledMs: 0 })).toBe(1);
    expect(await freshRunDays(adapters.analytics)([45], whole.from, whole.to)).toEqual([{ deviceId: 45, day }]);
  });

  it("passes a drive from a stored day into today's unstored fixes in pieces, one trip as from every fix; a late fix that splits the drive too", async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    const fixes = buildTrack({
      start: new Date(today - 2 * 3_600_000),
      origin: [36.7, -1.1],
      everySeconds: 30,
      segments: [
        { kind: 'stop', seconds: 3600 },
        { kind: 'drive', seconds: 3 * 3600, kmh: 60 },
        { kind: 'stop', seconds: 1800 },
      ],
    });
    await put(trackPositions(46, 'trk-46', fixes, false)); // no odometer: a trip's distance is the fold's path
    await adapters.analytics.client.command({ query: `DELETE FROM ${adapters.analytics.database}.track_touched WHERE device_id = 46` });
    expect(await computeTrackRuns(adapters.analytics)({ settledMs: 0 })).toBeGreaterThanOrEqual(1);
    const device: ReportDevice = { id: 46, name: 'KCB 46', attributes: {} };
    const q = { deviceIds: [46], from: new Date(today - DAY), to: new Date(today + 2 * 3_600_000) };
    const span = stillRunSpan(defaults)!;
    const items = async (kind: 'trips' | 'stops', runs?: StoredRuns) =>
      allItems(
        trackRuns(streamTracks(adapters.analytics)({ ...q, stillRunSpan: () => span, runs, pageRows: 97 }), {
          kind,
          thresholdsOf: () => defaults,
          lookup: (keys) => queryStoredAt(adapters.analytics)(keys),
          item: (_, iv) => (kind === 'trips' ? tripItem(device, iv, defaults) : stopItem(device, iv, defaults)),
        }),
      );
    const everyFix = (kind: 'trips' | 'stops') =>
      allItems(
        perDevice<ReportFixRow, ReportTrip | ReportStop>(streamReportFixes(adapters.analytics)(q), () =>
          kind === 'trips' ? tripsRun(device, defaults) : stopsRun(device, defaults),
        ),
      );
    const expectAsEveryFix = async (label: string, fresh: number) => {
      const runs = { fresh: await freshRunDays(adapters.analytics)([46], q.from, q.to), spanSeconds: new Map([[46, span / 1000]]) };
      expect(runs.fresh, label).toHaveLength(fresh);
      const trips = (await everyFix('trips')) as ReportTrip[];
      expect(trips, label).toHaveLength(1);
      expect(Date.parse(trips[0]!.startTime), label).toBeLessThan(today);
      expect(Date.parse(trips[0]!.endTime), label).toBeGreaterThan(today);
      expect(await items('trips', runs), label).toEqual(trips);
      expect(await items('trips'), label).toEqual(trips);
      expect(await items('stops', runs), label).toEqual(await everyFix('stops'));
    };
    await expectAsEveryFix('stored day and today', 1);
    // a late fix 10 s after a fix of yesterday's drive, 20 m on: a leg under minDistance splits the drive
    const at = fixes.findIndex((f) => f.time >= today - 1_800_000 && f.kmh > 0);
    const split = trackPositions(
      46,
      'trk-46',
      [{ ...fixes[at]!, time: fixes[at]!.time + 10_000, lonLat: [fixes[at]!.lonLat[0] + 0.0002, fixes[at]!.lonLat[1]] }],
      false,
    );
    await put(split);
    await expectAsEveryFix('late fix', 0);
    expect(await computeTrackRuns(adapters.analytics)({ settledMs: 0 })).toBeGreaterThanOrEqual(1);
    await expectAsEveryFix('late fix, computed again', 1);
  });

  it('touching days by hand makes exactly those stale', async () => {
    const before = await freshRunDays(adapters.analytics)(IDS, period.from, period.to);
    const day = before.find((f) => f.deviceId === 44)!;
    await touchTrackDays(adapters.analytics)([44], [day.day]);
    expect(await freshRunDays(adapters.analytics)(IDS, period.from, period.to)).toEqual(before.filter((f) => f !== day));
    expect(await computeTrackRuns(adapters.analytics)({ settledMs: 0 })).toBe(1);
  });
});
