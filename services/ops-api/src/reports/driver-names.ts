import { inArray } from 'drizzle-orm';
import type { ReportTrip } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { drivers } from '../db/schema';

/**
 * Fills driverName on trips from the drivers registry (Traccar's findDriverName: the position
 * attribute driverUniqueId names a driver's uniqueId). One query per batch for the ids not yet seen.
 */
export function driverNamer(db: Orm) {
  return async function* (batches: AsyncIterable<ReportTrip[]>): AsyncGenerator<ReportTrip[]> {
    const names = new Map<string, string | null>();
    for await (const batch of batches) {
      const unknown = [...new Set(batch.map((t) => t.driverUniqueId).filter((id): id is string => id !== undefined && !names.has(id)))];
      if (unknown.length) {
        const rows = await db.select({ uniqueId: drivers.uniqueId, name: drivers.name }).from(drivers).where(inArray(drivers.uniqueId, unknown));
        for (const id of unknown) names.set(id, null);
        for (const r of rows) names.set(r.uniqueId, r.name);
      }
      yield batch.map((t) => {
        const name = t.driverUniqueId === undefined ? undefined : names.get(t.driverUniqueId);
        return name ? { ...t, driverName: name } : t;
      });
    }
  };
}
