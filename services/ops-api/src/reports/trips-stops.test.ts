import { describe, expect, it } from 'vitest';
import { ReportStop, ReportTrip, positionId } from '@corridor/contracts';
import type { ReportFixRow } from '../clickhouse/report-positions';
import type { DeviceRun } from './device-runs';
import { defaultReportSettings, type TripThresholds } from './settings';
import { stopsRun } from './stops';
import { buildTrack, trackRows, type Segment } from './synthetic-track';
import { tripsRun } from './trips';

const device = { id: 7, name: 'KBX 123A', attributes: {} };
const defaults = defaultReportSettings().trips;
const T0 = Date.parse('2026-03-02T06:00:00Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();

function run<T>(r: DeviceRun<ReportFixRow, T>, rows: ReportFixRow[]): T[] {
  const out: T[] = [];
  for (const row of rows) out.push(...r.push(row));
  return [...out, ...r.finish()];
}
const trips = (rows: ReportFixRow[], t: Partial<TripThresholds> = {}) =>
  run(tripsRun(device, { ...defaults, ...t }), rows).map((x) => ReportTrip.parse(x));
const stops = (rows: ReportFixRow[], t: Partial<TripThresholds> = {}) =>
  run(stopsRun(device, { ...defaults, ...t }), rows).map((x) => ReportStop.parse(x));

/**
 * A working day with known answers, a fix every 30 s, 60 km/h (500 m per fix) due east from
 * Nairobi: on the road at 06:00, drive 2 h (120 km), park 1 h (engine idling 10 min), drive 3 h
 * (180 km), park 1.5 h, drive 2 h until the report ends while still on the road.
 */
const day: Segment[] = [
  { kind: 'drive', seconds: 7200, kmh: 60 },
  { kind: 'stop', seconds: 3600, idleSeconds: 600 },
  { kind: 'drive', seconds: 10800, kmh: 60 },
  { kind: 'stop', seconds: 5400, idleSeconds: 600 },
  { kind: 'drive', seconds: 7200, kmh: 60 },
];
const track = (segments: Segment[]) => buildTrack({ start: new Date(T0), origin: [36.82, -1.29], everySeconds: 30, segments });
const dayTrack = track(day);

describe('trips and stops, new logic (Traccar default)', () => {
  // The stop is confirmed at the first fix whose last 180 s of fixes all lie within 200 m: the
  // truck stands from the arrival fix on, so that is arrival + 210 s (the window must reach back
  // past the last moving fix, 500 m out). The trip then starts at the last fix before pulling away.
  const STOP_CONFIRMED = 210;

  it('finds exactly the 3 trips and 2 stops of the day, with their times, durations and distances', () => {
    for (const counters of [true, false]) {
      const found = trips(trackRows(device.id, dayTrack, counters));
      expect(found.map((t) => [t.startTime, t.endTime, t.duration])).toEqual([
        [at(0), at(7200 + STOP_CONFIRMED), (7200 + STOP_CONFIRMED) * 1000],
        [at(10800), at(21600 + STOP_CONFIRMED), (10800 + STOP_CONFIRMED) * 1000],
        [at(27000), at(34170), 7170 * 1000], // still driving at the end: closed at the last fix
      ]);
      const km = [120_000, 180_000, 119_500];
      found.forEach((t, i) =>
        expect(Math.abs(t.distance - km[i]!) / km[i]!, `trip ${i} ${counters ? 'odometer' : 'path'}`).toBeLessThan(0.01),
      );
      if (counters) expect(found.map((t) => t.distance)).toEqual([120_000, 180_000, 119_500]); // odometer deltas, exact
      expect(found[0]!.maxSpeed).toBeCloseTo(60 / 1.852, 3);
      expect(found[1]!.averageSpeed).toBeCloseTo(((180_000 / 11_010) * 3600) / 1852, 2);
      expect(found[0]).toMatchObject({ deviceId: 7, deviceName: 'KBX 123A', startPositionId: positionId(7, T0) });
      expect(found[0]).not.toHaveProperty('startAddress'); // none without a geocoder: left out (Traccar's schema has a string)
      expect(found[0]!.startOdometer).toBe(counters ? 1_000_000 : null);
      expect(found[0]!.spentFuel).toBe(counters ? 42 : 0); // 0.35 l/km × 120 km
      const s = stops(trackRows(device.id, dayTrack, counters));
      expect(s.map((x) => [x.startTime, x.endTime, x.duration])).toEqual([
        [at(7200 + STOP_CONFIRMED), at(10800), (3600 - STOP_CONFIRMED) * 1000],
        [at(21600 + STOP_CONFIRMED), at(27000), (5400 - STOP_CONFIRMED) * 1000],
      ]);
      expect(s[0]!.distance).toBeLessThan(1);
      // engine idled 600 s after arriving; 390 s of it fall after the stop was confirmed (13 legs of 30 s)
      expect(s[0]!.engineHours).toBe(counters ? 390_000 : 360_000); // hours attribute; else ignition on at both ends (12 legs)
    }
  });

  it('back-dates the start over a slow pull-away that needs several fixes to leave 200 m', () => {
    const slow = track([
      { kind: 'stop', seconds: 600 },
      { kind: 'drive', seconds: 1800, kmh: 15 }, // 125 m per fix: noticed at the 2nd fix, started at the 1st
      { kind: 'stop', seconds: 600 },
    ]);
    const [trip, ...more] = trips(trackRows(1, slow));
    expect(more).toEqual([]);
    expect(trip!.startTime).toBe(at(600));
    expect(trip!.endTime).toBe(at(2400 + 180)); // 125 m legs: the fix before arrival is within 200 m, so arrival + 180 s
    expect(stops(trackRows(1, slow)).map((s) => [s.startTime, s.endTime])).toEqual([
      [at(0), at(600)],
      [at(2580), at(2970)],
    ]);
  });

  it('honours minDistance and minDuration', () => {
    const rows = trackRows(1, dayTrack);
    expect(trips(rows, { minDuration: 600_000 }).map((t) => t.endTime)).toEqual([at(7200 + 630), at(21600 + 630), at(34170)]);
    const shortHop = track([
      { kind: 'stop', seconds: 600 },
      { kind: 'drive', seconds: 30, kmh: 36 },
      { kind: 'stop', seconds: 600 },
    ]); // 300 m
    expect(trips(trackRows(1, shortHop))).toHaveLength(1);
    expect(trips(trackRows(1, shortHop), { minDistance: 400 })).toHaveLength(0);
  });
});

describe('old logic (report.trip.newLogic=false, MotionProcessor)', () => {
  it('dates trips from the first moving fix to the first standing fix on the same day', () => {
    const rows = trackRows(device.id, dayTrack);
    const found = trips(rows, { newLogic: false });
    expect(found.map((t) => [t.startTime, t.endTime])).toEqual([
      [at(0), at(7200)],
      [at(10800), at(21600)],
      [at(27000), at(34170)],
    ]);
    expect(found.map((t) => t.distance)).toEqual([120_000, 180_000, 119_500]);
    expect(stops(rows, { newLogic: false }).map((s) => [s.startTime, s.endTime])).toEqual([
      [at(7200), at(10800)],
      [at(21600), at(27000)],
    ]);
  });

  it('differs from the new logic on a 4-minute halt: a stop for the new logic, none for the old', () => {
    const halt = track([
      { kind: 'drive', seconds: 3600, kmh: 60 },
      { kind: 'stop', seconds: 240 }, // under minimalParkingDuration (300 s), over minDuration (180 s)
      { kind: 'drive', seconds: 3600, kmh: 60 },
    ]);
    const rows = trackRows(1, halt);
    expect(trips(rows).map((t) => [t.startTime, t.endTime])).toEqual([
      [at(0), at(3600 + 210)],
      [at(3840), at(7410)],
    ]);
    expect(stops(rows).map((s) => [s.startTime, s.endTime])).toEqual([[at(3810), at(3840)]]);
    expect(trips(rows, { newLogic: false }).map((t) => [t.startTime, t.endTime])).toEqual([[at(0), at(7410)]]);
    expect(stops(rows, { newLogic: false })).toEqual([]);
  });

  it('needs a streak of minimalTripDistance or minimalTripDuration to start a trip', () => {
    const creep = track([
      { kind: 'stop', seconds: 600 },
      { kind: 'drive', seconds: 240, kmh: 5 },
      { kind: 'stop', seconds: 900 },
    ]); // 333 m in 4 min
    expect(trips(trackRows(1, creep), { newLogic: false })).toEqual([]);
    const [t] = trips(trackRows(1, creep), { newLogic: false, minimalTripDuration: 120_000 });
    expect([t!.startTime, t!.endTime]).toEqual([at(600), at(840)]);
    expect(trips(trackRows(1, creep), { newLogic: false, minimalTripDistance: 250 })).toHaveLength(1); // 292 m while moving
  });

  it('ends a trip at once on ignition off with useIgnition', () => {
    const rows = trackRows(
      1,
      track([
        { kind: 'drive', seconds: 1800, kmh: 60 },
        { kind: 'stop', seconds: 120 },
        { kind: 'drive', seconds: 1800, kmh: 60 },
      ]),
    );
    expect(trips(rows, { newLogic: false })).toHaveLength(1); // a 2-minute halt is no parking
    expect(trips(rows, { newLogic: false, useIgnition: true }).map((t) => t.endTime)).toEqual([at(1800), at(3690)]);
  });
});

describe('data gaps', () => {
  // 2 h without data while covering 100 km (a coverage hole on the A104), then on the road again
  const gap = track([
    { kind: 'drive', seconds: 3600, kmh: 60 },
    { kind: 'gap', seconds: 7200, metres: 100_000 },
    { kind: 'drive', seconds: 3600, kmh: 60 },
  ]);
  const rows = trackRows(1, gap);

  it('new logic: a gap over stopGap that covered the distance is a trip of its own, split from the trips around it', () => {
    const found = trips(rows);
    expect(found.map((t) => [t.startTime, t.endTime])).toEqual([
      [at(0), at(3570)],
      [at(3570), at(10800)],
      [at(10800), at(14370)],
    ]);
    expect(found[1]!.distance).toBe(100_000 + 500); // odometer: the last 500 m leg before the gap and the gap itself
    expect(stops(rows).map((s) => s.duration)).toEqual([0, 0]); // Traccar's stop at the last fix and at the new fix
  });

  it('new logic: a gap shorter than stopGap is part of the trip', () => {
    expect(trips(rows, { stopGap: 3 * 3600_000 }).map((t) => [t.startTime, t.endTime])).toEqual([[at(0), at(14370)]]);
  });

  it('old logic: a gap of minimalNoDataDuration while moving stops the trip at the last fix before it', () => {
    const found = trips(rows, { newLogic: false });
    expect(found.map((t) => [t.startTime, t.endTime])).toEqual([
      [at(0), at(3570)],
      [at(10830), at(14370)],
    ]);
  });
});

describe('jumps (positions too far apart for the time between them)', () => {
  // 1 h at 60 km/h, then the position jumps 20 km in 30 s (2,400 km/h: a bad fix, a replayed
  // simulator), then 1 h more at 60 km/h
  const jumped = track([
    { kind: 'drive', seconds: 3600, kmh: 60 },
    { kind: 'gap', seconds: 30, metres: 20_000 },
    { kind: 'drive', seconds: 3600, kmh: 60 },
  ]);
  const rows = trackRows(1, jumped, false);

  it('are not driven: the trip goes on, its distance leaves the jump out and reports it as a gap', () => {
    const [trip, ...more] = trips(rows);
    expect(more).toEqual([]);
    // the leg of the jump also held the last 500 m driven before it
    expect(trip!.distance).toBeGreaterThan(118_500);
    expect(trip!.distance).toBeLessThan(120_000);
    expect(trip!.gapDistance).toBeGreaterThan(20_000);
    expect(trip!.gapDistance).toBeLessThan(21_000);
    // physically possible: the average over the trip's time is below the top speed
    expect(trip!.averageSpeed).toBeLessThanOrEqual(trip!.maxSpeed);
  });

  it('a fast leg that a vehicle could drive is driven, and with the odometer there is no gap', () => {
    const fast = trackRows(
      1,
      track([
        { kind: 'drive', seconds: 600, kmh: 60 },
        { kind: 'gap', seconds: 600, metres: 25_000 }, // 150 km/h: under the highest plausible speed
        { kind: 'drive', seconds: 600, kmh: 60 },
      ]),
      false,
    );
    const [trip] = trips(fast);
    expect(trip!.gapDistance).toBe(0);
    expect(trip!.distance).toBeGreaterThan(44_000);
    const [withOdometer] = trips(rows.map((r, i) => ({ ...r, odometer: 1_000_000 + i * 500 })));
    expect(withOdometer!.gapDistance).toBe(0);
  });

  it('count by the highest plausible speed of the settings (REPORT_MAX_SPEED) where the fixes report no speed', () => {
    // without speeds at its ends a leg is bounded by the ceiling alone (clickhouse/report-jumps.ts)
    const speedless = rows.map((r) => ({ ...r, speed: 0 }));
    expect(trips(speedless)[0]!.gapDistance).toBeGreaterThan(20_000);
    const [trip] = trips(speedless, { maxSpeed: 5000 });
    expect(trip!.gapDistance).toBe(0);
    expect(trip!.distance).toBeGreaterThan(139_000);
  });
});
