import { distanceMetres } from '@corridor/geodata/geo-math';
import type { ReportFixRow } from '@corridor/platform/clickhouse/report-positions';

/**
 * A fix as the detectors and report items read it: the stored fields plus running totals from the
 * device's first fix of the report, so any interval's path length or ignition time is the
 * difference of its two ends (like Traccar's server-side totalDistance and hours accumulators).
 */
export interface ReportFix extends ReportFixRow {
  /** Path length since the first fix, metres (sum of great-circle legs). */
  path: number;
  /** Ignition-on time since the first fix (legs with ignition on at both ends), ms. */
  ignitionMs: number;
  /** How many fixes so far carried an ignition value (0 = no ignition data at all). */
  ignitionFixes: number;
  /** In motion: the `motion` attribute when reported, else speed above the threshold. */
  moving: boolean;
}

export const MPS_TO_KNOTS = 3600 / 1852;

/** Great-circle distance between two fixes, metres. */
export const fixDistance = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number =>
  distanceMetres([a.longitude, a.latitude], [b.longitude, b.latitude]);

/**
 * Turns one device's rows (oldest first) into report fixes with running totals. The row object is
 * extended in place (a month of fixes is read once; copying each would double the garbage).
 */
export function fixTrack(speedThreshold: number): (row: ReportFixRow) => ReportFix {
  let prev: ReportFix | undefined;
  return (row) => {
    const fix = row as ReportFix;
    fix.moving = row.motion ?? row.speed > speedThreshold;
    if (prev) {
      fix.path = prev.path + fixDistance(prev, row);
      fix.ignitionMs = prev.ignitionMs + (prev.ignition === true && row.ignition === true ? row.time - prev.time : 0);
      fix.ignitionFixes = prev.ignitionFixes + (row.ignition === null ? 0 : 1);
    } else {
      fix.path = 0;
      fix.ignitionMs = 0;
      fix.ignitionFixes = row.ignition === null ? 0 : 1;
    }
    prev = fix;
    return fix;
  };
}
