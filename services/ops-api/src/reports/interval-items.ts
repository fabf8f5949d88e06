import { fixKey, type FixKey, type ReportFixRow, type StoredFields } from '../clickhouse/report-positions';
import type { MotionFix, ReportFix } from './fixes';
import type { Interval } from './intervals';

/**
 * An interval's end as stored, with the running totals the fold computed for it. The row looked up
 * holds every stored field (queryFixesAt) or those the fix lacks (queryStoredAt: the fix comes from
 * the lean track, which read its other fields from the same stored row).
 */
function stored(fix: MotionFix, rows: Map<string, StoredFields>): ReportFix {
  const row = rows.get(fixKey(fix));
  // written out field by field: a spread of the three objects cost ~6 µs an end (tools/bench reports)
  const out: ReportFix = {
    deviceId: fix.deviceId,
    id: fix.id,
    time: fix.time,
    latitude: fix.latitude,
    longitude: fix.longitude,
    speed: fix.speed,
    ignition: fix.ignition,
    motion: fix.motion,
    // no row: deleted between the two reads, so what the track had of it
    valid: row ? row.valid : true,
    odometer: row ? row.odometer : null,
    hours: row ? row.hours : null,
    fuelUsed: row ? row.fuelUsed : null,
    fuel: row ? row.fuel : null,
    fuelLevel: row ? row.fuelLevel : null,
    driverUniqueId: row ? row.driverUniqueId : null,
    path: fix.path,
    gap: fix.gap,
    leg: fix.leg,
    ignitionMs: fix.ignitionMs,
    ignitionFixes: fix.ignitionFixes,
    moving: fix.moving,
  };
  if (row && 'latitude' in row) {
    // a whole stored row (queryFixesAt): its values of what the fix carries too
    const whole = row as ReportFixRow;
    out.deviceId = whole.deviceId;
    out.id = whole.id;
    out.time = whole.time;
    out.latitude = whole.latitude;
    out.longitude = whole.longitude;
    out.speed = whole.speed;
    out.ignition = whole.ignition;
    out.motion = whole.motion;
  }
  return out;
}

/** Items of intervals found (device id, interval) with their two ends' stored rows, read in one query. */
export async function completedItems<T>(
  found: [number, Interval<MotionFix>][],
  o: { lookup(keys: FixKey[]): Promise<Map<string, StoredFields>>; item(deviceId: number, interval: Interval): T },
): Promise<T[]> {
  if (!found.length) return [];
  const rows = await o.lookup(found.flatMap(([, iv]) => [iv.start, iv.end]));
  return found.map(([id, iv]) =>
    o.item(id, { start: stored(iv.start, rows), end: stored(iv.end, rows), maxSpeed: iv.maxSpeed, topFromTrack: iv.topFromTrack }),
  );
}
