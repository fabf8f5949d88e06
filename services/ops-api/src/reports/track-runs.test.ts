import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PositionMessage, positionId, type PositionMessageInput, type ReportStop, type ReportTrip } from '@corridor/contracts';
import { ensurePositionsTable, insertPositions } from '@corridor/platform';
import { queryFixesAt, streamReportFixes, type ReportFixRow } from '@corridor/platform/clickhouse/report-positions';
import { streamTracks } from '@corridor/platform/clickhouse/report-track';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { perDevice, type DeviceRun } from './device-runs';
import type { ReportDevice } from './report-devices';
import { defaultReportSettings, type TripThresholds } from './settings';
import { stopItem, stopsRun } from './stops';
import { buildTrack, trackPositions, type Segment } from './synthetic-track';
import { trackRuns } from './track-runs';
import { tripItem, tripsRun } from './trips';

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

/**
 * Irregular fixes: stops and drives of random length, jitter, random speeds and ignition, `motion`
 * sometimes, gaps; and redeliveries (a later server time, other values), inserted apart so they are
 * second rows of their keys until a merge.
 */
function irregular(deviceId: number, n: number, seed: number, counters: boolean): [PositionMessageInput[], PositionMessageInput[]] {
  let x = seed;
  const rnd = () => ((x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  let t = T0 + 3_600_000;
  let [lat, lon, odometer, hours] = [-3.4, 38.5, 100_000, 5e8];
  let driving = false;
  let left = 0;
  const out: PositionMessageInput[] = [];
  const again: PositionMessageInput[] = [];
  for (let i = 0; i < n; i++) {
    if (--left <= 0) {
      driving = !driving;
      left = Math.round(5 + rnd() * (driving ? 200 : 120));
    }
    t += (rnd() < 0.01 ? Math.round(rnd() * 3 * 3_600) : Math.round(5 + rnd() * 55)) * 1000; // positions are stored to the second
    const step = driving ? 0.002 + rnd() * 0.004 : rnd() < 0.2 ? 0.0015 : rnd() * 0.0002; // parked: jitter, now and then a jump
    lat += (rnd() - 0.5) * step;
    lon += (rnd() - 0.2) * step;
    const speed = driving ? Math.round(rnd() * 6000) / 100 : rnd() < 0.8 ? 0 : Math.round(rnd() * 300) / 100;
    odometer += speed * 8;
    hours += 30_000;
    const attributes: Record<string, number | boolean | string> = counters ? { hours, fuelUsed: Math.round(odometer / 10) / 100 } : {};
    if (rnd() < 0.1) attributes['motion'] = rnd() < 0.5;
    if (rnd() < 0.05) attributes['driverUniqueId'] = `D${deviceId}`;
    const p: PositionMessageInput = {
      id: positionId(deviceId, t), deviceId, uniqueId: `trk-${deviceId}`, protocol: 'teltonika', fixTime: new Date(t).toISOString(),
      serverTime: new Date(t + 1000).toISOString(), valid: true, latitude: lat, longitude: lon, speed, course: 0,
      ignition: rnd() < 0.1 ? null : driving || rnd() < 0.3, odometer: counters ? odometer : null, attributes,
    };
    out.push(p);
    // a state record of the same second (no fix: the last location, not valid): a row of its own
    if (rnd() < 0.02) out.push({ ...p, id: positionId(deviceId, t, 'state'), valid: false, speed: 0, attributes: { outdated: true, batteryLevel: 80 } });
    if (rnd() < 0.03) again.push({ ...p, speed: Math.round(rnd() * 4000) / 100, latitude: lat + 0.01, serverTime: new Date(t + 5000).toISOString() });
  }
  return [out, again];
}

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
  await ensurePositionsTable(adapters.analytics);
  // redeliveries stay second rows of their keys (a merge would collapse them before the reads)
  await adapters.analytics.client.command({ query: `SYSTEM STOP MERGES ${adapters.analytics.database}.positions` });
  const put = (ps: PositionMessageInput[]) => insertPositions(adapters.analytics)(ps.map((p) => PositionMessage.parse(p)));
  const [a, b, c] = [irregular(21, 4000, 11, true), irregular(22, 3000, 12, false), irregular(23, 18_000, 13, true)]; // 23: more fixes than a decoder chunk
  for (const [first] of [a, b, c]) await put(first);
  for (const [, again] of [a, b, c]) await put(again);
  await put(trackPositions(24, 'trk-24', buildTrack({ start: new Date(T0), origin: [39.66, -4.05], everySeconds: 20, segments: workday })));
  await put(trackPositions(25, 'trk-25', buildTrack({ start: new Date(T0), origin: [39.66, -4.05], everySeconds: 60, segments: [...workday, ...workday] }), false));
}, 120_000);
afterAll(async () => {
  await adapters?.close();
});

type Kind = 'trips' | 'stops';
const period = { from: new Date(T0), to: new Date(T0 + 40 * DAY) };
const thresholds = (d: ReportDevice, over: Partial<TripThresholds>): TripThresholds => {
  const own = d.attributes['report.trip.minDistance'] === undefined ? {} : { minDistance: Number(d.attributes['report.trip.minDistance']) };
  const speed = d.attributes['event.motion.speedThreshold'] === undefined ? {} : { speedThreshold: Number(d.attributes['event.motion.speedThreshold']) };
  return { ...defaults, ...own, ...speed, ...over };
};
const byId = new Map(devices.map((d) => [d.id, d]));
type Item = ReportTrip | ReportStop;
const item = (kind: Kind, over: Partial<TripThresholds>) => (id: number, iv: Parameters<typeof tripItem>[1]): Item =>
  kind === 'trips' ? tripItem(byId.get(id)!, iv, thresholds(byId.get(id)!, over)) : stopItem(byId.get(id)!, iv, thresholds(byId.get(id)!, over));

async function all<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) out.push(...b);
  return out;
}

/** The reference: every fix read whole, folded per device. */
const fromRows = (kind: Kind, over: Partial<TripThresholds>) =>
  all(perDevice(streamReportFixes(adapters.analytics)({ deviceIds: devices.map((d) => d.id), ...period }), (id) => {
    const d = byId.get(id)!;
    return (kind === 'trips' ? tripsRun(d, thresholds(d, over)) : stopsRun(d, thresholds(d, over))) as DeviceRun<ReportFixRow, Item>;
  }));

const fromTrack = (kind: Kind, over: Partial<TripThresholds>, pageRows?: number) =>
  all(trackRuns(streamTracks(adapters.analytics)({ deviceIds: devices.map((d) => d.id), ...period, pageRows }), {
    kind, thresholdsOf: (id) => thresholds(byId.get(id)!, over), lookup: (keys) => queryFixesAt(adapters.analytics)(keys), item: item(kind, over),
  }));

describe('trips and stops from the lean track', () => {
  const cases: [string, Partial<TripThresholds>][] = [
    ['new logic (default)', {}],
    ['new logic, short stops and gaps', { minDuration: 60_000, stopGap: 1_800_000, minDistance: 120 }],
    ['old logic', { newLogic: false }],
    ['old logic with ignition, short parking', { newLogic: false, useIgnition: true, minimalParkingDuration: 120_000, minimalTripDistance: 300 }],
    ['odometer ignored', { ignoreOdometer: true }],
  ];
  for (const [name, over] of cases) {
    it(`say what the fold over every fix says: ${name}`, async () => {
      for (const kind of ['trips', 'stops'] as const) {
        const expected = await fromRows(kind, over);
        expect(new Set(expected.map((x) => x.deviceId)).size, `${kind}: every device has some`).toBe(devices.length);
        for (const pageRows of [700, 5000, undefined]) { // several devices to a page, one device in keyset pages, the default
          expect(await fromTrack(kind, over, pageRows), `${kind}, pages of ${pageRows}`).toEqual(expected);
        }
      }
    }, 120_000);
  }

});
