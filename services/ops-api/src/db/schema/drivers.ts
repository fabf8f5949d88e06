import { index, integer, jsonb, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar drivers, identified by the card/iButton id trackers report as driverUniqueId. */
export const drivers = ops.table(
  'drivers',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    uniqueId: text('unique_id').notNull(),
    companyId: integer('company_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [uniqueIndex('drivers_unique_id_idx').on(t.uniqueId), index('drivers_company_idx').on(t.companyId)],
);
export type DriverRow = typeof drivers.$inferSelect;
