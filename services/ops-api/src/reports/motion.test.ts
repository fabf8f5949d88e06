import { positionId } from '@corridor/contracts';
import { describe, expect, it } from 'vitest';
import { offsetMetres } from '@corridor/geodata/geo-math';
import { fixTrack, type ReportFix } from './fixes';
import type { MotionDetector } from './motion';
import { newMotionDetector } from './motion-new-logic';
import { oldMotionDetector } from './motion-old-logic';

/** Fixes at (seconds, metres east of the origin, knots); events as [type, seconds of the fix they are dated to]. */
function fixes(points: [number, number, number][]): ReportFix[] {
  const track = fixTrack(0.01, 108);
  return points.map(([s, east, speed]) => {
    const [lon, lat] = offsetMetres([0, 0], east, 90);
    return track({
      deviceId: 1,
      id: positionId(1, Date.UTC(2026, 0, 1) + s * 1000),
      time: s * 1000,
      latitude: lat,
      longitude: lon,
      speed,
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
  });
}
function events(make: (first: ReportFix) => MotionDetector, points: [number, number, number][]): [string, number][] {
  const all = fixes(points);
  const d = make(all[0]!);
  return all.flatMap((f) => d.update(f).map((e): [string, number] => [e.type, e.fix.time / 1000]));
}

const newLogic = (first: ReportFix) => newMotionDetector({ minDistance: 200, minDuration: 180_000, stopGap: 3_600_000 }, first);
const oldLogic = (first: ReportFix) =>
  oldMotionDetector(
    {
      minimalTripDistance: 500,
      minimalTripDuration: 300_000,
      minimalParkingDuration: 300_000,
      minimalNoDataDuration: 3_600_000,
      useIgnition: false,
    },
    first,
  );

describe('new logic (NewMotionProcessor)', () => {
  it('moves once 200 m from the last stop point, dated back to the fix it pulled away from', () => {
    expect(
      events(newLogic, [
        [0, 0, 0],
        [60, 5, 0],
        [120, 0, 0],
        [180, 150, 10],
        [240, 450, 10],
      ]),
    ).toEqual([['moving', 120]]);
  });

  it('does not date back over a slow drift', () => {
    // 120 s legs of 100 m (0.83 m/s, under 200 m / 180 s)
    expect(
      events(newLogic, [
        [0, 0, 0],
        [120, 100, 1],
        [240, 200, 1],
      ]),
    ).toEqual([['moving', 240]]);
  });

  it('stops once every fix of the last 180 s lies within 200 m, dated to that fix', () => {
    const moving: [number, number, number][] = [
      [0, 0, 30],
      [60, 900, 30],
      [120, 1800, 30],
    ];
    expect(events(newLogic, [...moving, [180, 1850, 0], [240, 1850, 0], [300, 1850, 0]])).toEqual([]);
    expect(events(newLogic, [...moving, [180, 1850, 0], [240, 1850, 0], [300, 1850, 0], [360, 1850, 0]])).toEqual([['stopped', 360]]);
  });

  it('splits a fast data gap over stopGap into stop / move / stop', () => {
    expect(
      events(newLogic, [
        [0, 0, 30],
        [60, 900, 30],
        [60 + 7200, 100_000, 30],
      ]),
    ).toEqual([
      ['stopped', 60],
      ['moving', 60],
      ['stopped', 7260],
    ]);
    // a gap that covered less than 200 m (parked overnight) is no trip
    expect(
      events(newLogic, [
        [0, 0, 0],
        [60, 0, 0],
        [60 + 36_000, 50, 0],
      ]),
    ).toEqual([]);
  });
});

describe('old logic (MotionProcessor)', () => {
  it('starts a trip after 500 m of motion, dated to the first moving fix', () => {
    expect(
      events(oldLogic, [
        [0, 0, 0],
        [30, 0, 20],
        [60, 300, 20],
        [90, 600, 20],
      ]),
    ).toEqual([['moving', 30]]);
  });

  it('resets the streak on a flicker', () => {
    expect(
      events(oldLogic, [
        [0, 0, 0],
        [30, 0, 20],
        [60, 300, 0],
        [90, 300, 20],
        [120, 600, 20],
      ]),
    ).toEqual([]);
  });

  it('stops after 300 s out of motion, dated to the first standing fix', () => {
    const pts: [number, number, number][] = [
      [0, 0, 20],
      [60, 600, 0],
      [180, 600, 0],
      [300, 600, 0],
      [360, 600, 0],
    ];
    expect(events(oldLogic, pts.slice(0, 4))).toEqual([]);
    expect(events(oldLogic, pts)).toEqual([['stopped', 60]]);
  });

  it('stops at the last fix before a gap of minimalNoDataDuration while moving', () => {
    expect(
      events(oldLogic, [
        [0, 0, 20],
        [60, 600, 20],
        [60 + 3600, 60_000, 20],
      ]),
    ).toEqual([['stopped', 60]]);
  });
});
