import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionMessage, positionId, type PositionMessageInput, type ReportStop, type ReportTrip } from '@corridor/contracts';
import { ensurePositionsTable, insertPositions } from '@corridor/platform';
import { queryFixesAt, streamReportFixes, type ReportFixRow } from '@corridor/platform/clickhouse/report-positions';
import { streamMotionRuns } from '@corridor/platform/clickhouse/report-motion-runs';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { EARTH_RADIUS_M } from '@corridor/geodata/geo-math';
import { perDevice, type DeviceRun } from './device-runs';
import { motionRunItems, runThresholds, runsAnswer } from './motion-runs';
import type { ReportDevice } from './report-devices';
import { defaultReportSettings, type TripThresholds } from './settings';
import { stopItem, stopsRun } from './stops';
import { tripItem, tripsRun } from './trips';

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

function lcg(seed: number) {
  let x = seed;
  return () => ((x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

/** A random track: runs of a few to a hundred fixes, moving or parked; gaps up to 3 h. */
function randomTrack(deviceId: number, n: number, seed: number): [PositionMessageInput[], PositionMessageInput[]] {
  const rnd = lcg(seed);
  let t = T0 + Math.round(rnd() * 3_600) * 1000;
  let [lat, lon] = [-1.2 - rnd(), 36.8 + rnd()];
  let driving = rnd() < 0.5;
  let left = 0;
  const out: PositionMessageInput[] = [];
  const again: PositionMessageInput[] = [];
  for (let i = 0; i < n; i++) {
    if (--left <= 0) {
      driving = !driving;
      left = Math.round(1 + rnd() * (rnd() < 0.3 ? 4 : 100));
    }
    const r = rnd();
    const gap = r < 0.02 ? Math.round(rnd() * 3 * 3_600) : r < 0.05 ? Math.round(300 + rnd() * 1_500) : Math.round(1 + rnd() * 60);
    t += gap * 1000;
    const step = driving ? 0.001 + rnd() * 0.005 : rnd() * 0.0003;
    lat += (rnd() - 0.5) * step;
    lon += (rnd() - 0.3) * step;
    const speed = driving ? (gap > 300 && rnd() < 0.5 ? 90 : Math.round(rnd() * 6000) / 100) : rnd() < 0.85 ? 0 : Math.round(rnd() * 200) / 100; // fast after a gap now and then
    const attributes: Record<string, number | boolean> = {};
    if (rnd() < 0.08) attributes['motion'] = rnd() < 0.5;
    const p: PositionMessageInput = {
      id: positionId(deviceId, t), deviceId, uniqueId: `prop-${deviceId}`, protocol: 'teltonika', fixTime: new Date(t).toISOString(),
      serverTime: new Date(t + 1000).toISOString(), valid: true, latitude: lat, longitude: lon, speed, course: 0,
      ignition: rnd() < 0.15 ? null : driving ? rnd() < 0.95 : rnd() < 0.2, odometer: null, attributes,
    };
    out.push(p);
    if (rnd() < 0.02) out.push({ ...p, id: positionId(deviceId, t, 'state'), valid: false, speed: 0, attributes: { outdated: true } });
    if (rnd() < 0.03) again.push({ ...p, speed: Math.round(rnd() * 4000) / 100, latitude: lat + 0.01, serverTime: new Date(t + 5000).toISOString() });
  }
  return [out, again];
}

/** Random older-model thresholds the store answers for (minimalTripDuration ≤ minimalNoDataDuration). */
function randomThresholds(seed: number): TripThresholds {
  const rnd = lcg(seed);
  const noData = Math.round(120 + rnd() * 7_200) * 1000;
  return {
    ...defaults, newLogic: false, speedThreshold: rnd() < 0.5 ? 0.01 : Math.round(rnd() * 500) / 100,
    minimalTripDuration: Math.round(1 + rnd() * (noData / 1000 - 1)) * 1000, minimalTripDistance: Math.round(rnd() * 3_000),
    minimalParkingDuration: Math.round(1 + rnd() * 1_800) * 1000, minimalNoDataDuration: noData, useIgnition: rnd() < 0.5,
  };
}

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  await ensurePositionsTable(adapters.analytics);
  // redeliveries stay second rows of their keys (a merge would collapse them before the reads)
  await adapters.analytics.client.command({ query: `SYSTEM STOP MERGES ${adapters.analytics.database}.positions` });
  const put = (ps: PositionMessageInput[]) => insertPositions(adapters.analytics)(ps.map((p) => PositionMessage.parse(p)));
  const tracks = DEVICES.map((id, i) => randomTrack(id, i === 0 ? 6_000 : 1_500, 1_000 + id));
  for (const [first] of tracks) await put(first);
  for (const [, again] of tracks) await put(again);
}, 180_000);
afterAll(async () => {
  await adapters?.close();
});

type Kind = 'trips' | 'stops';
type Item = ReportTrip | ReportStop;
const device = (id: number): ReportDevice => ({ id, name: `P ${id}`, attributes: {} });
const period = { deviceIds: DEVICES, from: new Date(T0), to: new Date(T0 + 60 * 86_400_000) };

async function all<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) out.push(...b);
  return out;
}

const item = (kind: Kind, t: TripThresholds) => (id: number, iv: Parameters<typeof tripItem>[1]): Item =>
  kind === 'trips' ? tripItem(device(id), iv, t) : stopItem(device(id), iv, t);

const oracle = (kind: Kind, thresholdsOf: (id: number) => TripThresholds) =>
  all(perDevice(streamReportFixes(adapters.analytics)(period), (id) =>
    (kind === 'trips' ? tripsRun(device(id), thresholdsOf(id)) : stopsRun(device(id), thresholdsOf(id))) as DeviceRun<ReportFixRow, Item>));

const inStore = (kind: Kind, thresholdsOf: (id: number) => TripThresholds, pageRows?: number) =>
  all(motionRunItems(streamMotionRuns(adapters.analytics)({
    ...period, pageRows, radiusMetres: EARTH_RADIUS_M, thresholdsOf: (id) => runThresholds(thresholdsOf(id)),
  }), { kind, thresholdsOf, lookup: (keys) => queryFixesAt(adapters.analytics)(keys), item: (id, iv) => item(kind, thresholdsOf(id))(id, iv) }));

/** Lengths (and what is divided from them) to 1e-9 relative; everything else as it is. */
const lengthsRounded = (items: Item[]) => items.map((x) => Object.fromEntries(Object.entries(x).map(([k, v]) =>
  [k, typeof v === 'number' && (k === 'distance' || k === 'averageSpeed') ? Number(v.toPrecision(9)) : v])));

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

  it('with Traccar\'s default older-model thresholds (trips across long gaps closed by the no-data rule)', async () => {
    const t = { ...defaults, newLogic: false };
    for (const kind of ['trips', 'stops'] as const) {
      const expected = await oracle(kind, () => t);
      expect(expected.length).toBeGreaterThan(10);
      expect(lengthsRounded(await inStore(kind, () => t))).toEqual(lengthsRounded(expected));
    }
  }, 120_000);
});
