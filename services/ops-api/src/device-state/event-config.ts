import { sql } from 'drizzle-orm';
import { unavailable, type Orm } from '@corridor/platform';
import { resolveThresholds } from '../reports/thresholds';
import type { TripThresholds } from '../reports/settings';
import type { EventConfig } from './position-events';

/** A positive number attribute (a speed limit in knots, a fuel threshold), or undefined when unusable. */
function positiveOf(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * The event settings of one device: the trip thresholds (server settings, overridden by the
 * device's `report.trip.*` attributes, as Traccar's TripsConfig reads them), the speed limit and
 * the fuel thresholds (the device's `speedLimit`, `fuelDropThreshold`, `fuelIncreaseThreshold`
 * attributes, else its group's).
 */
export function eventConfigOf(
  trips: TripThresholds,
  overspeedMinimalDuration: number,
  device: Record<string, unknown>,
  group: Record<string, unknown> | null,
): EventConfig {
  const t = resolveThresholds(trips, device);
  const fromDeviceOrGroup = (key: string): number | undefined => positiveOf(device[key]) ?? positiveOf(group?.[key]);
  const speedLimit = fromDeviceOrGroup('speedLimit');
  const fuelDropThreshold = fromDeviceOrGroup('fuelDropThreshold');
  const fuelIncreaseThreshold = fromDeviceOrGroup('fuelIncreaseThreshold');
  return {
    ...(speedLimit === undefined ? {} : { speedLimit }),
    ...(fuelDropThreshold === undefined ? {} : { fuelDropThreshold }),
    ...(fuelIncreaseThreshold === undefined ? {} : { fuelIncreaseThreshold }),
    overspeedMinimalDuration,
    minimalTripDuration: t.minimalTripDuration,
    minimalTripDistance: t.minimalTripDistance,
    minimalParkingDuration: t.minimalParkingDuration,
    useIgnition: t.useIgnition,
  };
}

/** Reads the attributes of these devices and their groups (one query per batch of positions). */
export function eventConfigReader(db: Orm, trips: TripThresholds, overspeedMinimalDuration: number) {
  return async (deviceIds: number[]): Promise<Map<number, EventConfig>> => {
    const out = new Map<number, EventConfig>();
    if (!deviceIds.length) return out;
    let result: unknown;
    try {
      result = await db.execute(sql`SELECT d.id, d.attributes, g.attributes AS group_attributes FROM ops.devices d
        LEFT JOIN ops.groups g ON g.id = d.group_id WHERE d.id IN (${sql.join(deviceIds.map((id) => sql`${id}`), sql`, `)})`);
    } catch (err) {
      throw unavailable('PostgreSQL', err);
    }
    type Row = { id: number; attributes: Record<string, unknown> | null; group_attributes: Record<string, unknown> | null };
    const rows = ((result as { rows?: Row[] }).rows ?? (result as Row[]));
    for (const r of rows) out.set(Number(r.id), eventConfigOf(trips, overspeedMinimalDuration, r.attributes ?? {}, r.group_attributes));
    return out;
  };
}
export type EventConfigReader = ReturnType<typeof eventConfigReader>;
