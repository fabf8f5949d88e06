import { inArray } from 'drizzle-orm';
import type { ReportTrip } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { drivers } from '../db/schema';
import { linkedDevices } from '../object-links/linked-devices';

/**
 * Fills driverName on trips from the drivers registry (Traccar's findDriverName: the position
 * attribute driverUniqueId names a driver's uniqueId), among the drivers linked to the trip's device
 * (directly, or through its group or a parent group), as Traccar's links scope a device's drivers:
 * a card read in a truck its driver is not linked to gives no name. The links are read once per
 * report, at its first trip with a driverUniqueId; the drivers once per batch for the ids not yet seen.
 */
export function driverNamer(db: Orm) {
  return async function* (batches: AsyncIterable<ReportTrip[]>): AsyncGenerator<ReportTrip[]> {
    /** uniqueId → the drivers with it (id, name) */
    const byCard = new Map<string, { id: number; name: string }[]>();
    let linked: Map<number, number[]> | undefined;
    for await (const batch of batches) {
      const unknown = [...new Set(batch.map((t) => t.driverUniqueId).filter((id): id is string => id !== undefined && !byCard.has(id)))];
      if (unknown.length) {
        linked ??= await linkedDevices(db, 'driverId');
        const rows = await db
          .select({ id: drivers.id, uniqueId: drivers.uniqueId, name: drivers.name })
          .from(drivers)
          .where(inArray(drivers.uniqueId, unknown));
        for (const id of unknown) byCard.set(id, []);
        for (const r of rows) byCard.get(r.uniqueId)!.push({ id: r.id, name: r.name });
      }
      yield batch.map((t) => {
        if (t.driverUniqueId === undefined) return t;
        const driver = byCard.get(t.driverUniqueId)?.find((d) => linked?.get(d.id)?.includes(t.deviceId));
        return driver ? { ...t, driverName: driver.name } : t;
      });
    }
  };
}
