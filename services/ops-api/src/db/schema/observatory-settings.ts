import { integer, jsonb } from 'drizzle-orm/pg-core';
import type { ObservatorySettingsInput } from '@corridor/contracts';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** The association's observatory settings: one row (id 1) once set; until then the defaults apply (observatory/settings.ts). */
export const observatorySettings = ops.table('observatory_settings', {
  id: integer('id').primaryKey(),
  settings: jsonb('settings').$type<ObservatorySettingsInput>().notNull(),
  updatedBy: integer('updated_by'),
  ...timestamps,
});
export type ObservatorySettingsRow = typeof observatorySettings.$inferSelect;
