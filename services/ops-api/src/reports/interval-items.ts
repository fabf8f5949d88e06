import { fixKey, type FixKey, type StoredFields } from '@corridor/platform/clickhouse/report-positions';
import type { MotionFix, ReportFix } from './fixes';
import type { Interval } from './intervals';

/**
 * An interval's end as stored, with the running totals the fold computed for it. The row looked up
 * holds every stored field (queryFixesAt) or those the fix lacks (queryStoredAt: the fix comes from
 * the lean track, which read its other fields from the same stored row).
 */
export function stored(fix: MotionFix, rows: Map<string, StoredFields>): ReportFix {
  const totals = { path: fix.path, leg: fix.leg, ignitionMs: fix.ignitionMs, ignitionFixes: fix.ignitionFixes, moving: fix.moving };
  const row = rows.get(fixKey(fix));
  if (row) return { ...fix, ...row, ...totals };
  // deleted between the two reads: what the track had of it
  return {
    ...fix, valid: true, odometer: null, hours: null, fuelUsed: null, fuel: null, fuelLevel: null, driverUniqueId: null, ...totals,
  };
}

/** Items of intervals found (device id, interval) with their two ends' stored rows, read in one query. */
export async function completedItems<T>(
  found: [number, Interval<MotionFix>][],
  o: { lookup(keys: FixKey[]): Promise<Map<string, StoredFields>>; item(deviceId: number, interval: Interval): T },
): Promise<T[]> {
  if (!found.length) return [];
  const rows = await o.lookup(found.flatMap(([, iv]) => [iv.start, iv.end]));
  return found.map(([id, iv]) => o.item(id, { start: stored(iv.start, rows), end: stored(iv.end, rows), maxSpeed: iv.maxSpeed }));
}
