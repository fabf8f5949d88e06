import { integer, jsonb, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/** A device's configuration: the template it follows and its own overrides (one row per device). */
export const deviceConfigurations = ops.table('device_configurations', {
  deviceId: integer('device_id').primaryKey(),
  configurationId: integer('configuration_id'),
  values: jsonb('values').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
});
export type DeviceConfigurationRow = typeof deviceConfigurations.$inferSelect;
