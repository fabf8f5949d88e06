import { z } from 'zod';
import { notRef } from './references';
import { Attributes, repeated } from './common';
import { OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';
import { LinkedListQuery } from './object-links';

/** Driver, in Traccar's shape: positions carrying attribute driverUniqueId link to it. */
export const DriverEntity = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    uniqueId: z.string().describe('Card / iButton / RFID id the tracker reports as driverUniqueId'),
    companyId: z.number().int().nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'Driver' });
export type DriverEntity = z.infer<typeof DriverEntity>;

export const DriverInput = z
  .object({
    name: z.string().min(1).max(128),
    uniqueId: notRef(
      z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _.:- only, at most 64'),
      "the driver's own identifier",
    ),
    companyId: OwnerCompanyInput,
    attributes: Attributes.default({}),
  })
  .meta({ id: 'DriverInput' });
export type DriverInput = z.infer<typeof DriverInput>;

export const DriversQuery = LinkedListQuery.extend({
  uniqueId: notRef(repeated(z.string()), 'a search key: the list holds only drivers the caller may see').optional(),
});

export const driversEndpoints = resourceEndpoints({
  id: 'drivers',
  path: '/drivers',
  noun: 'driver',
  kind: 'driver',
  tags: ['drivers'],
  entity: DriverEntity,
  input: DriverInput,
  query: DriversQuery,
  write: trackingWriters,
  companyScoped: true,
  description: 'Traccar Driver. uniqueId is unique across the platform (409 when taken). Keyword searches name and uniqueId.',
});
