import { index, integer, jsonb, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';
import { truckOwners } from './truck-owners';

/** Trucks, each held by one owner; plates are unique platform-wide. */
export const trucks = ops.table(
  'trucks',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => truckOwners.id, { onDelete: 'cascade' }),
    plateNumber: text('plate_number').notNull(),
    trailerPlate: text('trailer_plate'),
    make: text('make'),
    model: text('model'),
    year: integer('year'),
    deviceId: integer('device_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('trucks_plate_idx').on(t.plateNumber),
    index('trucks_owner_idx').on(t.ownerId),
    index('trucks_device_idx').on(t.deviceId),
  ],
);
export type TruckRow = typeof trucks.$inferSelect;
