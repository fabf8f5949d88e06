import { integer, jsonb, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** The catalogue of tracker models (platform-wide). */
export const deviceModels = ops.table(
  'device_models',
  {
    id: serial('id').primaryKey(),
    manufacturer: text('manufacturer').notNull(),
    model: text('model').notNull(),
    protocol: text('protocol').notNull(),
    port: integer('port').notNull(),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [uniqueIndex('device_models_make_model_idx').on(t.manufacturer, t.model)],
);
export type DeviceModelRow = typeof deviceModels.$inferSelect;
