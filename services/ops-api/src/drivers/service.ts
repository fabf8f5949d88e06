import { inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { DriverEntity, DriverInput, DriversQuery } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { drivers, type DriverRow } from '../db/schema';
import { resourceService } from '../resources/resource-service';
import { linkedFilter } from '../object-links/linked-filter';

const toDriver = (r: DriverRow): DriverEntity => ({
  id: r.id,
  name: r.name,
  uniqueId: r.uniqueId,
  companyId: r.companyId,
  attributes: r.attributes,
});

/** Drivers; uniqueId (the card a tracker reports as driverUniqueId) is unique platform-wide. */
export function driversService(db: Orm) {
  return resourceService<DriverRow, DriverEntity, DriverInput, z.output<typeof DriversQuery>>(db, {
    name: 'Driver',
    entityType: 'driver',
    table: drivers,
    company: drivers.companyId,
    shared: false,
    keywordColumns: [drivers.name, drivers.uniqueId],
    filters: (q) => [
      q.uniqueId?.length ? inArray(drivers.uniqueId, q.uniqueId) : undefined,
      ...linkedFilter(db, drivers.id, 'driverId', q),
    ],
    toEntity: toDriver,
    toValues: (i, companyId) => ({ name: i.name, uniqueId: i.uniqueId, companyId, attributes: i.attributes }),
    unique: { drivers_unique_id_idx: 'uniqueId' },
  });
}
export type DriversService = ReturnType<typeof driversService>;
