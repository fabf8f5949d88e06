import { index, integer, jsonb, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar orders; uniqueId is unique within a company (and among shared orders). */
export const orders = ops.table(
  'orders',
  {
    id: serial('id').primaryKey(),
    uniqueId: text('unique_id').notNull(),
    description: text('description'),
    fromAddress: text('from_address'),
    toAddress: text('to_address'),
    companyId: integer('company_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_company_unique_idx').on(sql`coalesce(${t.companyId}, 0)`, t.uniqueId),
    index('orders_company_idx').on(t.companyId),
  ],
);
export type OrderRow = typeof orders.$inferSelect;
