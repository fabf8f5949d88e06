import type { TripThresholdsQuery } from '@corridor/contracts';
import type { TripThresholds } from './settings';

/**
 * The thresholds one device's report runs with: the request's overrides first, then the device
 * attribute of Traccar's key name (e.g. `report.trip.minDistance` = 300, seconds for durations, as
 * Traccar reads them per device), then the server settings. A malformed attribute is ignored.
 */
type Key = Exclude<keyof TripThresholds, 'maxSpeed'>;
type Unit = 'bool' | 'metres' | 'seconds' | 'knots';

const keys: Record<Key, { attribute: string; unit: Unit }> = {
  newLogic: { attribute: 'report.trip.newLogic', unit: 'bool' },
  minDistance: { attribute: 'report.trip.minDistance', unit: 'metres' },
  minDuration: { attribute: 'report.trip.minDuration', unit: 'seconds' },
  stopGap: { attribute: 'report.trip.stopGap', unit: 'seconds' },
  minimalTripDistance: { attribute: 'report.trip.minimalTripDistance', unit: 'metres' },
  minimalTripDuration: { attribute: 'report.trip.minimalTripDuration', unit: 'seconds' },
  minimalParkingDuration: { attribute: 'report.trip.minimalParkingDuration', unit: 'seconds' },
  minimalNoDataDuration: { attribute: 'report.trip.minimalNoDataDuration', unit: 'seconds' },
  useIgnition: { attribute: 'report.trip.useIgnition', unit: 'bool' },
  ignoreOdometer: { attribute: 'report.ignoreOdometer', unit: 'bool' },
  speedThreshold: { attribute: 'event.motion.speedThreshold', unit: 'knots' },
};

/** An attribute or query value in Traccar's units → the internal value, or undefined when unusable. */
function read(unit: Unit, v: unknown): number | boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (unit === 'bool') {
    if (typeof v === 'boolean') return v;
    return v === 'true' ? true : v === 'false' ? false : undefined;
  }
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < 0) return undefined;
  if (unit === 'seconds') return n >= 1 ? n * 1000 : undefined;
  return n;
}

export type ThresholdOverrides = Partial<Pick<TripThresholdsQuery, Key>>;

export function resolveThresholds(
  settings: TripThresholds,
  deviceAttributes: Record<string, unknown>,
  overrides: ThresholdOverrides = {},
): TripThresholds {
  const out = { ...settings } as Record<Key, number | boolean>;
  for (const [key, spec] of Object.entries(keys) as [Key, (typeof keys)[Key]][]) {
    const fromRequest = read(spec.unit, overrides[key]);
    const fromDevice = read(spec.unit, deviceAttributes[spec.attribute]);
    const v = fromRequest ?? fromDevice;
    if (v !== undefined) out[key] = v;
  }
  return out as unknown as TripThresholds;
}
