import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionMessage, type PositionMessageInput, type ReportTrip } from '@corridor/contracts';
import { insertPositions } from '@corridor/platform';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { queryStoredAt, streamReportFixes } from '../clickhouse/report-positions';
import { streamTracks } from '../clickhouse/report-track';
import { perDevice } from './device-runs';
import { lcg, randomTrack } from './random-track';
import type { ReportDevice } from './report-devices';
import { defaultReportSettings, type TripThresholds } from './settings';
import { buildTrack, trackPositions, type Segment } from './synthetic-track';
import { stillRunSpan, trackRuns } from './track-runs';
import { tripItem, tripsRun } from './trips';
import { allItems } from '../../test/batches';

/**
 * Issue 28: trips of devices that report no speed, read from the store (chDB, or ClickHouse where
 * CLICKHOUSE_URL is set): the fold over the lean track (thinned still runs) gives the same trips as
 * the fold over every fix, field by field, top speeds from the track included; no trip averages above its top speed.
 */
let adapters: TestAdapters;
const T0 = Date.parse('2026-06-01T00:00:00Z');
const DAY = 86_400_000;
const defaults = defaultReportSettings().trips;
const devices: ReportDevice[] = [31, 32, 33].map((id) => ({ id, name: `KCA ${id}`, attributes: {} }));
const byId = new Map(devices.map((d) => [d.id, d]));
const period = { from: new Date(T0), to: new Date(T0 + 20 * DAY) };
const workday: Segment[] = [
  { kind: 'stop', seconds: 3 * 3600 },
  { kind: 'drive', seconds: 2 * 3600, kmh: 60 },
  { kind: 'stop', seconds: 3600, idleSeconds: 600 },
  { kind: 'gap', seconds: 7200, metres: 90_000 },
  { kind: 'drive', seconds: 3600, kmh: 45 },
  { kind: 'stop', seconds: 4 * 3600 },
];
const speedless = (ps: PositionMessageInput[]) => ps.map((p) => ({ ...p, speed: 0 }));

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  await adapters.analytics.client.command({ query: `SYSTEM STOP MERGES ${adapters.analytics.database}.positions` });
  const put = (ps: PositionMessageInput[]) => insertPositions(adapters.analytics)(ps.map((p) => PositionMessage.parse(p)));
  await put(
    speedless(
      trackPositions(31, 'trk-31', buildTrack({ start: new Date(T0), origin: [39.66, -4.05], everySeconds: 30, segments: workday })),
    ),
  );
  // random tracks without speeds (and no `motion` attribute): parked trackers repeating their fix, redeliveries
  for (const [id, seed] of [
    [32, 41],
    [33, 42],
  ] as const) {
    const { fixes, again } = randomTrack({ deviceId: id, fixes: 5000, seed, start: T0, counters: id === 32, still: 0.6 });
    const plain = (ps: PositionMessageInput[]) =>
      speedless(ps).map((p) => {
        const { motion: _, ...attributes } = p.attributes ?? {};
        return { ...p, attributes };
      });
    await put(plain(fixes));
    await put(plain(again));
  }
}, 120_000);
afterAll(async () => {
  await adapters?.close();
});

const source = { deviceIds: devices.map((d) => d.id), ...period };
const fromRows = (t: TripThresholds) =>
  allItems(perDevice(streamReportFixes(adapters.analytics)(source), (id) => tripsRun(byId.get(id)!, t)));
const fromTrack = (t: TripThresholds) =>
  allItems(
    trackRuns(streamTracks(adapters.analytics)({ ...source, stillRunSpan: () => stillRunSpan(t) }), {
      kind: 'trips',
      thresholdsOf: () => t,
      lookup: (keys) => queryStoredAt(adapters.analytics)(keys),
      item: (id, iv) => tripItem(byId.get(id)!, iv, t),
    }),
  );

describe('trips of devices that report no speed', () => {
  it('a drive at 60 km/h: top speed 60 km/h from the track, read whole or lean', async () => {
    const [first] = (await fromTrack(defaults)).filter((x) => x.deviceId === 31);
    expect(first!.maxSpeed).toBeCloseTo(60 / 1.852, 3);
    expect(first!.averageSpeed).toBeLessThanOrEqual(first!.maxSpeed);
  });

  it('the lean track and every fix give the same trips, and none averages above its top speed (random newer-model thresholds)', async () => {
    const rnd = lcg(5);
    const cases: TripThresholds[] = [defaults, { ...defaults, newLogic: false, useIgnition: true }];
    for (let i = 0; i < 4; i++) {
      cases.push({
        ...defaults,
        minDistance: Math.round(1 + rnd() * (rnd() < 0.5 ? 50 : 1_000)),
        minDuration: Math.round(1 + rnd() * 1_800) * 1000,
        stopGap: Math.round(30 + rnd() * 7_200) * 1000,
      });
    }
    let withSpeed = 0;
    for (const t of cases) {
      const expected: ReportTrip[] = await fromRows(t);
      expect(await fromTrack(t), JSON.stringify(t)).toEqual(expected);
      for (const trip of expected) {
        expect(trip.averageSpeed, `${trip.deviceId} ${trip.startTime}`).toBeLessThanOrEqual(trip.maxSpeed);
        if (trip.maxSpeed > 0) withSpeed++;
      }
    }
    expect(withSpeed, 'trips with a top speed from the track').toBeGreaterThan(50);
  }, 180_000);
});
