import { distanceMetresLatLon } from '@corridor/geodata/geo-math';
import { isJump } from '../clickhouse/report-jumps';
import type { ReportFixRow } from '../clickhouse/report-positions';

/** What detection reads of a stored fix. */
export type TrackRow = Pick<ReportFixRow, 'deviceId' | 'id' | 'time' | 'latitude' | 'longitude' | 'speed' | 'ignition' | 'motion'>;

/**
 * Running totals from the device's first fix of the report, so any interval's path length or
 * ignition time is the difference of its two ends (like Traccar's server-side totalDistance and
 * hours accumulators), and what detection derives per fix.
 */
export interface FixTotals {
  /** Path driven since the first fix, metres: the great-circle legs, but jumps (clickhouse/report-jumps.ts). */
  path: number;
  /** Jumps since the first fix, metres: legs too far for the time between their fixes, not driven. */
  gap: number;
  /** Great-circle distance from the previous fix, metres (0 for the first). */
  leg: number;
  /** Ignition-on time since the first fix (legs with ignition on at both ends), ms. */
  ignitionMs: number;
  /** How many fixes so far carried an ignition value (0 = no ignition data at all). */
  ignitionFixes: number;
  /** In motion: the `motion` attribute when reported, else speed above the threshold. */
  moving: boolean;
}

/** A fix as the detectors read it. */
export type MotionFix = TrackRow & FixTotals;

/** A fix as report items read it: the stored fields and the running totals. */
export type ReportFix = ReportFixRow & FixTotals;

export const MPS_TO_KNOTS = 3600 / 1852;

/** Great-circle distance between two fixes, metres. */
export const fixDistance = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number =>
  distanceMetresLatLon(a.latitude, a.longitude, b.latitude, b.longitude);

/**
 * Turns one device's rows (oldest first) into fixes with running totals. The row object is
 * extended in place (a month of fixes is read once; copying each would double the garbage); a
 * row that already has the total fields keeps its shape.
 */
/** `maxSpeed`: knots, the highest plausible speed (legs that would need more are jumps). `previous`: the fix before the first row, when the track goes on from one (device-state's motion). */
export function fixTrack<R extends TrackRow = ReportFixRow>(
  speedThreshold: number,
  maxSpeed: number,
  previous?: R & FixTotals,
): (row: R) => R & FixTotals {
  let prev: (R & FixTotals) | undefined = previous;
  return (row) => {
    const fix = row as R & FixTotals;
    fix.moving = row.motion ?? row.speed > speedThreshold;
    if (prev) {
      fix.leg = fixDistance(prev, row);
      const jump = isJump(fix.leg, row.time - prev.time, prev.speed, row.speed, maxSpeed);
      fix.path = prev.path + (jump ? 0 : fix.leg);
      fix.gap = prev.gap + (jump ? fix.leg : 0);
      fix.ignitionMs = prev.ignitionMs + (prev.ignition === true && row.ignition === true ? row.time - prev.time : 0);
      fix.ignitionFixes = prev.ignitionFixes + (row.ignition === null ? 0 : 1);
    } else {
      fix.leg = 0;
      fix.path = 0;
      fix.gap = 0;
      fix.ignitionMs = 0;
      fix.ignitionFixes = row.ignition === null ? 0 : 1;
    }
    prev = fix;
    return fix;
  };
}
