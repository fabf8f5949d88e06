import { index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Named device configuration templates. */
export const configurations = ops.table(
  'configurations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    deviceModelId: integer('device_model_id'),
    values: jsonb('values').$type<Record<string, unknown>>().notNull().default({}),
    companyId: integer('company_id'),
    ...timestamps,
  },
  (t) => [index('configurations_company_idx').on(t.companyId)],
);
export type ConfigurationRow = typeof configurations.$inferSelect;
