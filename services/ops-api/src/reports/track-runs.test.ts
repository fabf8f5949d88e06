import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionMessage, type PositionMessageInput, type ReportStop, type ReportTrip } from '@corridor/contracts';
import { insertPositions } from '@corridor/platform';
import { queryStoredAt, streamReportFixes, type ReportFixRow } from '../clickhouse/report-positions';
import { streamTracks } from '../clickhouse/report-track';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { perDevice, type DeviceRun } from './device-runs';
import type { ReportDevice } from './report-devices';
import { defaultReportSettings, type TripThresholds } from './settings';
import { stopItem, stopsRun } from './stops';
import { buildTrack, trackPositions, type Segment } from './synthetic-track';
import { stillRunSpan, trackRuns } from './track-runs';
import { lcg, randomTrack } from './random-track';
import { tripItem, tripsRun } from './trips';
import { allItems } from '../../test/batches';

/**
 * Trips and stops folded from the store's lean track (the default) say exactly what the fold over
 * every fix read whole says (the reference: trips-stops.test.ts pins it to known answers), on
 * irregular data, with either motion logic, in pages of any size.
 */
let adapters: TestAdapters;
const T0 = Date.parse('2026-05-04T00:00:00Z');
const DAY = 86_400_000;
const defaults = defaultReportSettings().trips;
const dev = (id: number, attributes: Record<string, unknown> = {}): ReportDevice => ({ id, name: `KBZ ${id}`, attributes });

const workday: Segment[] = [
  { kind: 'stop', seconds: 3 * 3600 },
  { kind: 'drive', seconds: 2 * 3600, kmh: 60 },
  { kind: 'stop', seconds: 3600, idleSeconds: 600 },
  { kind: 'drive', seconds: 1800, kmh: 15 },
  { kind: 'gap', seconds: 7200, metres: 90_000 },
  { kind: 'drive', seconds: 3600, kmh: 55 },
  { kind: 'stop', seconds: 4 * 3600 },
];

const devices = [dev(21), dev(22, { 'report.trip.minDistance': 350, 'event.motion.speedThreshold': 4 }), dev(23), dev(24), dev(25)];

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  // redeliveries stay second rows of their keys (a merge would collapse them before the reads)
  await adapters.analytics.client.command({ query: `SYSTEM STOP MERGES ${adapters.analytics.database}.positions` });
  const put = (ps: PositionMessageInput[]) => insertPositions(adapters.analytics)(ps.map((p) => PositionMessage.parse(p)));
  // parked trackers repeat their fix (runs the reader may thin for the newer model); 23: more fixes than a decoder chunk
  const tracks = [
    randomTrack({ deviceId: 21, fixes: 4000, seed: 11, start: T0, counters: true, still: 0.5 }),
    randomTrack({ deviceId: 22, fixes: 3000, seed: 12, start: T0 }),
    randomTrack({ deviceId: 23, fixes: 18_000, seed: 13, start: T0, counters: true, still: 0.8 }),
  ];
  for (const { fixes } of tracks) await put(fixes);
  for (const { again } of tracks) await put(again);
  await put(trackPositions(24, 'trk-24', buildTrack({ start: new Date(T0), origin: [39.66, -4.05], everySeconds: 20, segments: workday })));
  await put(
    trackPositions(
      25,
      'trk-25',
      buildTrack({ start: new Date(T0), origin: [39.66, -4.05], everySeconds: 60, segments: [...workday, ...workday] }),
      false,
    ),
  );
}, 120_000);
afterAll(async () => {
  await adapters?.close();
});

type Kind = 'trips' | 'stops';
const period = { from: new Date(T0), to: new Date(T0 + 40 * DAY) };
const thresholds = (d: ReportDevice, over: Partial<TripThresholds>): TripThresholds => {
  const own = d.attributes['report.trip.minDistance'] === undefined ? {} : { minDistance: Number(d.attributes['report.trip.minDistance']) };
  const speed =
    d.attributes['event.motion.speedThreshold'] === undefined
      ? {}
      : { speedThreshold: Number(d.attributes['event.motion.speedThreshold']) };
  return { ...defaults, ...own, ...speed, ...over };
};
const byId = new Map(devices.map((d) => [d.id, d]));
type Item = ReportTrip | ReportStop;
const item =
  (kind: Kind, over: Partial<TripThresholds>) =>
  (id: number, iv: Parameters<typeof tripItem>[1]): Item =>
    kind === 'trips'
      ? tripItem(byId.get(id)!, iv, thresholds(byId.get(id)!, over))
      : stopItem(byId.get(id)!, iv, thresholds(byId.get(id)!, over));

/** The reference: every fix read whole, folded per device. */
const fromRows = (kind: Kind, over: Partial<TripThresholds>) =>
  allItems(
    perDevice(streamReportFixes(adapters.analytics)({ deviceIds: devices.map((d) => d.id), ...period }), (id) => {
      const d = byId.get(id)!;
      return (kind === 'trips' ? tripsRun(d, thresholds(d, over)) : stopsRun(d, thresholds(d, over))) as DeviceRun<ReportFixRow, Item>;
    }),
  );

/** As the service reads it: runs of identical fixes thinned where the device's thresholds allow (stillRunSpan). */
const track = (over: Partial<TripThresholds>, pageRows?: number, whole = false) =>
  streamTracks(adapters.analytics)({
    deviceIds: devices.map((d) => d.id),
    ...period,
    pageRows,
    stillRunSpan: whole ? undefined : (id) => stillRunSpan(thresholds(byId.get(id)!, over)),
  });

const fromTrack = (kind: Kind, over: Partial<TripThresholds>, pageRows?: number) =>
  allItems(
    trackRuns(track(over, pageRows), {
      kind,
      thresholdsOf: (id) => thresholds(byId.get(id)!, over),
      lookup: (keys) => queryStoredAt(adapters.analytics)(keys),
      item: item(kind, over),
    }),
  );

describe('trips and stops from the lean track', () => {
  const cases: [string, Partial<TripThresholds>][] = [
    ['new logic (default)', {}],
    ['new logic, short stops and gaps', { minDuration: 60_000, stopGap: 1_800_000, minDistance: 120 }],
    ['old logic', { newLogic: false }],
    [
      'old logic with ignition, short parking',
      { newLogic: false, useIgnition: true, minimalParkingDuration: 120_000, minimalTripDistance: 300 },
    ],
    ['odometer ignored', { ignoreOdometer: true }],
  ];
  for (const [name, over] of cases) {
    it(`say what the fold over every fix says: ${name}`, async () => {
      for (const kind of ['trips', 'stops'] as const) {
        const expected = await fromRows(kind, over);
        expect(new Set(expected.map((x) => x.deviceId)).size, `${kind}: every device has some`).toBe(devices.length);
        for (const pageRows of [700, 5000, undefined]) {
          // several devices to a page, one device in keyset pages, the default
          expect(await fromTrack(kind, over, pageRows), `${kind}, pages of ${pageRows}`).toEqual(expected);
        }
      }
    }, 120_000);
  }

  /** Random newer-model thresholds, minDistance from 1 m (a parked jitter crosses it) to 1 km. */
  function randomNewLogic(seed: number): Partial<TripThresholds> {
    const rnd = lcg(seed);
    return {
      newLogic: true,
      minDistance: Math.round(1 + rnd() * (rnd() < 0.5 ? 50 : 1_000)),
      minDuration: Math.round(1 + rnd() * 1_800) * 1000,
      stopGap: Math.round(30 + rnd() * 7_200) * 1000,
      speedThreshold: rnd() < 0.5 ? 0.01 : Math.round(rnd() * 500) / 100,
    };
  }

  it('thin runs of identical fixes for the newer model without changing an answer (random thresholds)', async () => {
    const fixes = async (over: Partial<TripThresholds>, whole: boolean) => {
      let n = 0;
      for await (const batch of track(over, undefined, whole)) for (const c of batch) n += c.length;
      return n;
    };
    const whole = await fixes({}, true);
    expect(await fixes({}, false), 'the runs are thinned').toBeLessThan(0.95 * whole);
    expect(await fixes({ minDuration: 30_000 }, false), 'the more, the shorter minDuration').toBeLessThan(0.8 * whole);
    expect(await fixes({ newLogic: false }, false), 'not for the older model').toBe(whole);
    let intervals = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const over = randomNewLogic(seed);
      for (const kind of ['trips', 'stops'] as const) {
        const expected = await fromRows(kind, over);
        intervals += expected.length;
        expect(await fromTrack(kind, over, seed % 3 === 0 ? 2_000 : undefined), `${kind}, seed ${seed}: ${JSON.stringify(over)}`).toEqual(
          expected,
        );
      }
    }
    expect(intervals, 'the tracks make trips and stops').toBeGreaterThan(200);
  }, 180_000);
});
