import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionMessage, positionId, type PositionMessageInput, type ReportStop, type ReportTrip } from '@corridor/contracts';
import { insertPositions, migrationsFolder, touchTrackDays } from '@corridor/platform';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { queryStoredAt, streamReportFixes, type ReportFixRow } from '../clickhouse/report-positions';
import { streamTracks, type StoredRuns, type TrackChunk } from '../clickhouse/report-track';
import { computeTrackRuns, freshRunDays, trackRunsSql } from '../clickhouse/report-track-runs';
import { deletePositions } from '../clickhouse/position-delete';
import { perDevice } from './device-runs';
import { lcg, randomTrack } from './random-track';
import type { ReportDevice } from './report-devices';
import { defaultReportSettings, type TripThresholds } from './settings';
import { stillRunSpan, trackRuns } from './track-runs';
import { buildTrack, trackPositions } from './synthetic-track';
import { stopItem, stopsRun } from './stops';
import { tripItem, tripsRun } from './trips';

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

async function all<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) out.push(...b);
  return out;
}

const spansOf = (t: TripThresholds) => new Map(IDS.map((id) => [id, stillRunSpan(t)! / 1000]));
async function runsFor(t: TripThresholds): Promise<StoredRuns> {
  return { fresh: await freshRunDays(adapters.analytics)(IDS, period.from, period.to), spanSeconds: spansOf(t) };
}
const reference = (kind: 'trips' | 'stops', t: TripThresholds) =>
  all(
    perDevice<ReportFixRow, ReportTrip | ReportStop>(streamReportFixes(adapters.analytics)(source), (id) =>
      kind === 'trips' ? tripsRun(byId.get(id)!, t) : stopsRun(byId.get(id)!, t),
    ),
  );
const fromTrack = async (kind: 'trips' | 'stops', t: TripThresholds, runs?: StoredRuns) =>
  all(
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

async function expectSameAsEveryFix(label: string): Promise<void> {
  for (const t of thresholdCases()) {
    const runs = await runsFor(t);
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

  it('touching days by hand makes exactly those stale', async () => {
    const before = await freshRunDays(adapters.analytics)(IDS, period.from, period.to);
    const day = before.find((f) => f.deviceId === 44)!;
    await touchTrackDays(adapters.analytics)([44], [day.day]);
    expect(await freshRunDays(adapters.analytics)(IDS, period.from, period.to)).toEqual(before.filter((f) => f !== day));
    expect(await computeTrackRuns(adapters.analytics)({ settledMs: 0 })).toBe(1);
  });
});
