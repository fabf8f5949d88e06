import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionMessage, type PositionMessageInput, type ReportStop, type ReportTrip } from '@corridor/contracts';
import { insertPositions } from '@corridor/platform';
import { queryFixesAt, streamReportFixes, type ReportFixRow } from '../clickhouse/report-positions';
import { streamMotionRuns } from '../clickhouse/report-motion-runs';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { EARTH_RADIUS_M } from '@corridor/geodata/geo-math';
import { perDevice, type DeviceRun } from './device-runs';
import { motionRunItems, runThresholds, runsAnswer } from './motion-runs';
import { lcg, randomTrack } from './random-track';
import type { ReportDevice } from './report-devices';
import { defaultReportSettings, type TripThresholds } from './settings';
import { stopItem, stopsRun } from './stops';
import { tripItem, tripsRun } from './trips';
import { allItems } from '../../test/batches';

/**
 * Property test: trips and stops computed in the store (window functions, motion-runs.ts) say what
 * the fold over every fix read whole says (the oracle: Traccar's older motion model, pinned to known
 * answers in trips-stops.test.ts), on random tracks under random thresholds. Tracks flicker between
 * motion and rest, carry the `motion` attribute now and then, lose data for short and long gaps,
 * switch ignition, repeat a second with a state record, and are redelivered with other values.
 * Lengths agree to 1e-9 (the store sums the same haversine legs with its own sin/cos), all else exactly.
 */
let adapters: TestAdapters;
const T0 = Date.parse('2026-06-01T00:00:00Z');
const DEVICES = [31, 32, 33, 34, 35, 36];
const defaults = defaultReportSettings().trips;

/** Random older-model thresholds the store answers for (minimalTripDuration ≤ minimalNoDataDuration). */
function randomThresholds(seed: number): TripThresholds {
  const rnd = lcg(seed);
  const noData = Math.round(120 + rnd() * 7_200) * 1000;
  return {
    ...defaults,
    newLogic: false,
    speedThreshold: rnd() < 0.5 ? 0.01 : Math.round(rnd() * 500) / 100,
    minimalTripDuration: Math.round(1 + rnd() * (noData / 1000 - 1)) * 1000,
    minimalTripDistance: Math.round(rnd() * 3_000),
    minimalParkingDuration: Math.round(1 + rnd() * 1_800) * 1000,
    minimalNoDataDuration: noData,
    useIgnition: rnd() < 0.5,
  };
}

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  // redeliveries stay second rows of their keys (a merge would collapse them before the reads)
  await adapters.analytics.client.command({ query: `SYSTEM STOP MERGES ${adapters.analytics.database}.positions` });
  const put = (ps: PositionMessageInput[]) => insertPositions(adapters.analytics)(ps.map((p) => PositionMessage.parse(p)));
  const tracks = DEVICES.map((id, i) =>
    randomTrack({ deviceId: id, fixes: i === 0 ? 6_000 : 1_500, seed: 1_000 + id, start: T0, still: i % 2 ? 0.6 : 0 }),
  );
  for (const { fixes } of tracks) await put(fixes);
  for (const { again } of tracks) await put(again);
}, 180_000);
afterAll(async () => {
  await adapters?.close();
});

type Kind = 'trips' | 'stops';
type Item = ReportTrip | ReportStop;
const device = (id: number): ReportDevice => ({ id, name: `P ${id}`, attributes: {} });
const period = { deviceIds: DEVICES, from: new Date(T0), to: new Date(T0 + 60 * 86_400_000) };

const item =
  (kind: Kind, t: TripThresholds) =>
  (id: number, iv: Parameters<typeof tripItem>[1]): Item =>
    kind === 'trips' ? tripItem(device(id), iv, t) : stopItem(device(id), iv, t);

const oracle = (kind: Kind, thresholdsOf: (id: number) => TripThresholds) =>
  allItems(
    perDevice(
      streamReportFixes(adapters.analytics)(period),
      (id) =>
        (kind === 'trips' ? tripsRun(device(id), thresholdsOf(id)) : stopsRun(device(id), thresholdsOf(id))) as DeviceRun<
          ReportFixRow,
          Item
        >,
    ),
  );

const inStore = (kind: Kind, thresholdsOf: (id: number) => TripThresholds, pageRows?: number) =>
  allItems(
    motionRunItems(
      streamMotionRuns(adapters.analytics)({
        ...period,
        pageRows,
        radiusMetres: EARTH_RADIUS_M,
        maxSpeed: defaults.maxSpeed,
        thresholdsOf: (id) => runThresholds(thresholdsOf(id)),
      }),
      {
        kind,
        thresholdsOf,
        lookup: (keys) => queryFixesAt(adapters.analytics)(keys),
        item: (id, iv) => item(kind, thresholdsOf(id))(id, iv),
      },
    ),
  );

/** Lengths (and what is divided from them) to 1e-9 relative; everything else as it is. */
const lengthsRounded = (items: Item[]) =>
  items.map((x) =>
    Object.fromEntries(
      Object.entries(x).map(([k, v]) => [
        k,
        typeof v === 'number' && (k === 'distance' || k === 'gapDistance' || k === 'averageSpeed') ? Number(v.toPrecision(9)) : v,
      ]),
    ),
  );

describe('trips and stops computed in the store', () => {
  it('answer for the older model only, when a streak can span no more than a data gap', () => {
    expect(runsAnswer({ ...defaults, newLogic: false })).toBe(true);
    expect(runsAnswer(defaults)).toBe(defaults.newLogic === false);
    expect(runsAnswer({ ...defaults, newLogic: false, minimalTripDuration: 7_200_000, minimalNoDataDuration: 3_600_000 })).toBe(false);
  });

  it('say what the fold over every fix says, on random tracks under random thresholds', async () => {
    let intervals = 0;
    for (let seed = 1; seed <= 8; seed++) {
      const own = new Map(DEVICES.map((id, i) => [id, randomThresholds(seed * 100 + (seed % 2 ? i : 0))])); // odd seeds: per device
      const thresholdsOf = (id: number) => own.get(id)!;
      for (const kind of ['trips', 'stops'] as const) {
        const expected = await oracle(kind, thresholdsOf);
        intervals += expected.length;
        const pageRows = seed % 3 === 0 ? 2_000 : undefined; // several devices to a page, the big one alone; or the default
        expect(lengthsRounded(await inStore(kind, thresholdsOf, pageRows)), `${kind}, seed ${seed}`).toEqual(lengthsRounded(expected));
      }
    }
    expect(intervals, 'the tracks make trips and stops').toBeGreaterThan(200);
  }, 300_000);

  it("with Traccar's default older-model thresholds (trips across long gaps closed by the no-data rule)", async () => {
    const t = { ...defaults, newLogic: false };
    for (const kind of ['trips', 'stops'] as const) {
      const expected = await oracle(kind, () => t);
      expect(expected.length).toBeGreaterThan(10);
      expect(lengthsRounded(await inStore(kind, () => t))).toEqual(lengthsRounded(expected));
    }
  }, 120_000);
});
