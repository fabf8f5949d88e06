import { MPS_TO_KNOTS, type ReportFix } from './fixes';

/** What the measures read of a fix: its time, its counters and the running totals. */
export type Measured = Pick<
  ReportFix,
  'time' | 'odometer' | 'hours' | 'fuelUsed' | 'fuel' | 'fuelLevel' | 'path' | 'gap' | 'ignitionMs' | 'ignitionFixes'
>;

/**
 * What a report item measures between two fixes of one device, as Traccar does: distance from the
 * device odometer when both ends carry a non-zero one (unless ignoreOdometer), else along the path;
 * engine hours from the `hours` attribute, else ignition-on time; fuel from `fuelUsed`, `fuel` or
 * `fuelLevel` × the device's `fuelCapacity`.
 */
const usesOdometer = (a: Measured, b: Measured, ignoreOdometer: boolean): boolean => !ignoreOdometer && !!a.odometer && !!b.odometer;

export function distanceBetween(a: Measured, b: Measured, ignoreOdometer: boolean): number {
  return usesOdometer(a, b, ignoreOdometer) ? b.odometer! - a.odometer! : b.path - a.path;
}

/**
 * Metres the positions jumped between two fixes (legs too long for their time: platform
 * report-jumps.ts), left out of a distance along the path; 0 when the distance is the odometer's.
 */
export function gapBetween(a: Measured, b: Measured, ignoreOdometer: boolean): number {
  return usesOdometer(a, b, ignoreOdometer) ? 0 : b.gap - a.gap;
}

/** The device odometer at both ends when the distance comes from it, else nulls. */
export function odometers(a: Measured, b: Measured, ignoreOdometer: boolean): { startOdometer: number | null; endOdometer: number | null } {
  return usesOdometer(a, b, ignoreOdometer)
    ? { startOdometer: a.odometer, endOdometer: b.odometer }
    : { startOdometer: null, endOdometer: null };
}

/** ms; null when the device reports neither engine hours nor ignition. */
export function engineHoursBetween(a: Measured, b: Measured): number | null {
  if (a.hours !== null && b.hours !== null) return Math.round(b.hours - a.hours);
  if (b.ignitionFixes > 0) return b.ignitionMs - a.ignitionMs;
  return null;
}

const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Litres spent between two fixes; null when the device reports no fuel data. */
export function spentFuel(a: Measured, b: Measured, deviceAttributes: Record<string, unknown>): number | null {
  if (a.fuelUsed !== null && b.fuelUsed !== null) return round2(b.fuelUsed - a.fuelUsed);
  if (a.fuel !== null && b.fuel !== null) return round2(a.fuel - b.fuel);
  const capacity = Number(deviceAttributes['fuelCapacity']);
  if (a.fuelLevel !== null && b.fuelLevel !== null && Number.isFinite(capacity) && capacity > 0) {
    return round2(((a.fuelLevel - b.fuelLevel) * capacity) / 100);
  }
  return null;
}

/** knots from metres over milliseconds (0 for an empty duration). */
export const averageKnots = (metres: number, ms: number): number => (ms > 0 ? (metres / (ms / 1000)) * MPS_TO_KNOTS : 0);

export const iso = (ms: number): string => new Date(ms).toISOString();
