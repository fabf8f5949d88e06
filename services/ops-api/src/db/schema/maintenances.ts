import { doublePrecision, index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar maintenance: the watched position value (type), first due at start, then every period. */
export const maintenances = ops.table(
  'maintenances',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    start: doublePrecision('start').notNull(),
    period: doublePrecision('period').notNull(),
    companyId: integer('company_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('maintenances_company_idx').on(t.companyId)],
);
export type MaintenanceRow = typeof maintenances.$inferSelect;
