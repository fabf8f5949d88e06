import { describe, expect, it } from 'vitest';
import { positionId, ReportStop, ReportTrip } from '@corridor/contracts';
import { offsetMetres } from '@corridor/geodata/geo-math';
import type { LonLat } from '@corridor/geodata';
import { isJump } from '../clickhouse/report-jumps';
import type { ReportFixRow } from '../clickhouse/report-positions';
import type { DeviceRun } from './device-runs';
import { fixDistance, fixTrack } from './fixes';
import { lcg } from './random-track';
import { defaultReportSettings, type TripThresholds } from './settings';
import { stopsRun } from './stops';
import { tripsRun } from './trips';

/**
 * Issue 26: every trip and stop figure physically possible. A leg that implies an impossible speed
 * (clickhouse/report-jumps.ts) is a gap, not driven, so no trip averages above its top speed when
 * its fixes move as fast as they report, whatever jumps the positions make in between.
 */
const device = { id: 7, name: 'KBX 123A', attributes: {} };
const defaults = defaultReportSettings().trips;
const kn = (kmh: number): number => kmh / 1.852;
const T0 = Date.parse('2026-03-02T06:00:00Z');

function run<T>(r: DeviceRun<ReportFixRow, T>, rows: ReportFixRow[]): T[] {
  const out: T[] = [];
  for (const row of rows) out.push(...r.push({ ...row }));
  return [...out, ...r.finish()];
}
const trips = (rows: ReportFixRow[], t: Partial<TripThresholds> = {}) =>
  run(tripsRun(device, { ...defaults, ...t }), rows).map((x) => ReportTrip.parse(x));
const stops = (rows: ReportFixRow[], t: Partial<TripThresholds> = {}) =>
  run(stopsRun(device, { ...defaults, ...t }), rows).map((x) => ReportStop.parse(x));

const row = (time: number, at: LonLat, knots: number): ReportFixRow => ({
  deviceId: device.id,
  id: positionId(device.id, time),
  time,
  latitude: at[1],
  longitude: at[0],
  speed: knots,
  valid: true,
  ignition: null,
  odometer: null,
  hours: null,
  fuelUsed: null,
  fuel: null,
  fuelLevel: null,
  driverUniqueId: null,
  motion: null,
});

describe('the jump rule', () => {
  const max = defaults.maxSpeed; // 108 kn, 200 km/h

  it('bounds a leg between fixes seconds apart by the speed they report', () => {
    // 72 km/h is 20 m/s: 5 s cover 100 m; gaining 1 m/s² for half the time and 30 m of position error allow 142.5 m
    expect(isJump(100, 5_000, kn(72), kn(72), max)).toBe(false);
    expect(isJump(140, 5_000, kn(72), kn(72), max)).toBe(false);
    // twice as far as the speed allows (144 km/h): under the 200 km/h ceiling, yet impossible for a truck reporting 72
    expect(isJump(200, 5_000, kn(72), kn(72), max)).toBe(true);
    // the faster end counts: pulling away from 0 to 72 km/h
    expect(isJump(100, 5_000, 0, kn(72), max)).toBe(false);
  });

  it('leaves room for any drive between fixes minutes apart, up to the ceiling', () => {
    // 10 min between fixes at 20 km/h (in town): 10 km is possible (60 km/h between), 40 km is not (240 km/h)
    expect(isJump(10_000, 600_000, kn(20), kn(20), max)).toBe(false);
    expect(isJump(40_000, 600_000, kn(20), kn(20), max)).toBe(true);
    // a data gap of an hour: 150 km at 150 km/h is under the ceiling, 250 km is not
    expect(isJump(150_000, 3_600_000, kn(72), kn(72), max)).toBe(false);
    expect(isJump(250_000, 3_600_000, kn(72), kn(72), max)).toBe(true);
  });

  it('reads fixes without a speed (0 at both ends) by the ceiling alone, and fixes faster than the ceiling by the ceiling', () => {
    // a device that does not measure speed, 10 s apart: 300 m (108 km/h) is driven, 700 m (252 km/h) is not
    expect(isJump(300, 10_000, 0, 0, max)).toBe(false);
    expect(isJump(700, 10_000, 0, 0, max)).toBe(true);
    expect(isJump(700, 10_000, 300, 300, max)).toBe(true);
    // position error: a stationary tracker's jitter is no jump
    expect(isJump(25, 1_000, 0, 0, max)).toBe(false);
  });
});

describe('a trip whose positions move faster than its speeds (the demo simulator once did)', () => {
  // fixes every 5 s at 72 km/h due east (100 m each) for 10 min; for 2 min of it the positions
  // advance 200 m per fix (144 km/h) while the fixes still report 72 km/h; then 10 min parked
  const rows: ReportFixRow[] = [];
  let here: LonLat = [36.82, -1.29];
  for (let s = 0; s <= 600; s += 5) {
    rows.push(row(T0 + s * 1000, here, kn(72)));
    here = offsetMetres(here, s >= 240 && s < 360 ? 200 : 100, 90);
  }
  for (let s = 605; s <= 1200; s += 5) rows.push(row(T0 + s * 1000, here, 0));

  it('leaves the fast legs out of the distance driven and reports them as a gap: the average stays under the top speed', () => {
    const [trip, ...more] = trips(rows);
    expect(more).toEqual([]);
    // 24 legs of 200 m are a gap: 4.8 km; 97 legs of 100 m were driven (9.7 km)
    expect(trip!.gapDistance).toBeCloseTo(4_800, -1);
    expect(trip!.distance).toBeCloseTo(9_700, -1);
    expect(trip!.averageSpeed).toBeLessThanOrEqual(trip!.maxSpeed);
    const [stop] = stops(rows);
    expect(stop!.averageSpeed).toBeLessThanOrEqual(stop!.maxSpeed);
  });

  it('without a speed at its fixes (a device that measures none), only the ceiling bounds the legs: 144 km/h is driven', () => {
    const speedless = rows.map((r) => ({ ...r, speed: 0, motion: r.speed > 0 }));
    const [trip] = trips(speedless);
    expect(trip!.gapDistance).toBe(0);
    expect(trip!.distance).toBeCloseTo(14_500, -1);
  });
});

/**
 * A random track whose fixes move no farther than the speeds they report allow (each leg at most
 * the mean of its two ends' speeds over its time, shorter on a winding road), parked and driving,
 * fixes 1 to 60 s apart with data gaps of minutes to hours, and planted jumps between fixes seconds
 * apart while driving (a fix reporting no speed is bounded by the ceiling alone): a position at least
 * 300 m and four times what the faster end's speed covers away from where the vehicle is (for good,
 * or for one fix, as a bad fix). Returns the rows and the planted legs' indexes.
 */
function jumpyTrack(seed: number, fixes: number): { rows: ReportFixRow[]; planted: Set<number> } {
  const rnd = lcg(seed);
  const rows: ReportFixRow[] = [];
  const planted = new Set<number>();
  let t = T0;
  let here: LonLat = [36 + rnd(), -1 - rnd()];
  let heading = rnd() * 360;
  let kmh = 0;
  let driving = false;
  let left = 0;
  let badFix: { dt: number } | undefined; // the last fix was a bad one: the next, as soon after, is back on the track
  const dense = rnd() < 0.5; // fixes seconds apart, or up to a minute
  for (let i = 0; i < fixes; i++) {
    if (--left <= 0) {
      driving = !driving;
      left = Math.round(5 + rnd() * 200);
    }
    const gap = !badFix && rnd() < 0.02;
    const dt = badFix?.dt ?? (gap ? 300 + Math.round(rnd() * 2 * 3600) : dense ? 1 + Math.round(rnd() * 9) : 10 + Math.round(rnd() * 50));
    const before = kmh;
    kmh = driving ? Math.min(110, Math.max(5, (kmh || 20) + (rnd() - 0.5) * 20)) : 0;
    // a leg at most the mean of its ends' speeds over its time (shorter on a winding road)
    here = offsetMetres(here, ((before + kmh) / 2 / 3.6) * dt * (0.5 + rnd() / 2), heading);
    heading = (heading + (rnd() - 0.5) * 40 + 360) % 360;
    t += dt * 1000;
    let at = here;
    if (badFix) {
      planted.add(i); // back from the bad fix
      badFix = undefined;
    } else if (i > 0 && !gap && dt <= 10 && kmh > 0 && rnd() < 0.015) {
      // at least 300 m and four times what the faster end's speed (and then some) covers: no vehicle gets there
      const size = (300 + 4 * (Math.max(before, kmh) / 3.6 + 3) * dt) * (1 + rnd());
      at = offsetMetres(here, size, rnd() * 360);
      planted.add(i);
      if (rnd() < 0.5)
        here = at; // the positions go on from there (as the demo's off-corridor offset did)
      else badFix = { dt };
    }
    rows.push(row(t, at, kn(kmh)));
  }
  return { rows, planted };
}

describe('property: with fixes that move as fast as they report, jumps are gaps and no average exceeds its top speed', () => {
  // the average and top speed as a report file shows them, to 0.1 km/h: the rounding the property allows
  const ROUNDING = kn(0.05);
  const seeds = Array.from({ length: 40 }, (_, i) => 101 + i * 7);

  it.each(seeds)('seed %i', (seed) => {
    const { rows, planted } = jumpyTrack(seed, 1_500);
    // the rule finds exactly the planted legs
    const track = fixTrack(defaults.speedThreshold, defaults.maxSpeed);
    const jumps: number[] = [];
    const totals = rows.map((r) => track({ ...r }));
    for (let i = 1; i < totals.length; i++) if (totals[i]!.gap > totals[i - 1]!.gap) jumps.push(i);
    expect(jumps).toEqual([...planted].sort((a, b) => a - b));
    const plantedMetres = [...planted].reduce((m, i) => m + fixDistance(rows[i - 1]!, rows[i]!), 0);
    expect(totals.at(-1)!.gap).toBeCloseTo(plantedMetres, 3);

    for (const thresholds of [{}, { newLogic: false }]) {
      const found = trips(rows, thresholds);
      expect(found.length, 'the track has trips').toBeGreaterThan(0);
      for (const trip of found) {
        expect(trip.averageSpeed, `trip ${trip.startTime}: ${trip.distance} m`).toBeLessThanOrEqual(trip.maxSpeed + ROUNDING);
      }
      for (const stop of stops(rows, thresholds)) expect(stop.averageSpeed).toBeLessThanOrEqual(stop.maxSpeed + ROUNDING);
    }
  });
});

describe('a device that reports no speed (issue 28: its speed always 0, or absent, which the store holds as 0)', () => {
  // 10 min parked, 20 min at 72 km/h due east (a fix every 5 s: 100 m legs), 10 min parked, with every speed 0
  const speedless: ReportFixRow[] = [];
  let here: LonLat = [36.82, -1.29];
  for (let s = 0; s <= 2400; s += 5) {
    speedless.push(row(T0 + s * 1000, here, 0));
    if (s >= 600 && s < 1800) here = offsetMetres(here, 100, 90);
  }

  it('takes its trips’ top speed from the track (the fastest driven leg), never under their average', () => {
    for (const thresholds of [{}, { minDistance: 50, minDuration: 60_000 }]) {
      const found = trips(speedless, thresholds);
      expect(found.length).toBe(1);
      const [trip] = found;
      // the legs: 100 m in 5 s, 72 km/h (not the average, a little lower: the trip begins at a parked fix)
      expect(trip!.maxSpeed).toBeCloseTo(kn(72), 6);
      expect(trip!.averageSpeed).toBeGreaterThan(0);
      expect(trip!.averageSpeed).toBeLessThanOrEqual(trip!.maxSpeed);
    }
    // the same track with its speeds reported: the reported top speed, as before
    const reported = speedless.map((r, i) => (i > 0 && r.longitude !== speedless[i - 1]!.longitude ? { ...r, speed: kn(70) } : r));
    expect(trips(reported)[0]!.maxSpeed).toBe(kn(70));
  });

  it('leaves a jump out of the top speed as out of the distance', () => {
    // a leg of 5 km in 5 s (3,600 km/h: past the ceiling, a jump) halfway through the drive
    const jumped = speedless.map((r) =>
      r.time >= T0 + 1200_000 ? { ...r, longitude: offsetMetres([r.longitude, r.latitude], 5_000, 90)[0] } : r,
    );
    const [trip] = trips(jumped);
    expect(trip!.gapDistance).toBeGreaterThan(5_000);
    expect(trip!.maxSpeed).toBeCloseTo(kn(72), 6);
  });

  const seeds = Array.from({ length: 40 }, (_, i) => 101 + i * 7);
  it.each(seeds)('no trip averages above its top speed, random track without speeds, seed %i', (seed) => {
    const rows = jumpyTrack(seed, 1_500).rows.map((r) => ({ ...r, speed: 0 }));
    for (const thresholds of [{}, { minDistance: 50, minDuration: 60_000 }]) {
      const found = trips(rows, thresholds);
      expect(found.length, 'the track has trips').toBeGreaterThan(0);
      for (const trip of found) {
        // (a trip of a data gap whose leg is a jump drove nothing: 0 and 0)
        if (trip.distance > 0) expect(trip.maxSpeed, `trip ${trip.startTime}`).toBeGreaterThan(0);
        expect(trip.averageSpeed, `trip ${trip.startTime}: ${trip.distance} m`).toBeLessThanOrEqual(trip.maxSpeed);
      }
    }
  });
});
