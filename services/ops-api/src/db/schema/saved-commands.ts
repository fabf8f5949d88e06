import { boolean, index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar saved commands (named commands ready to send to a device or to any device). */
export const savedCommands = ops.table(
  'saved_commands',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id'),
    description: text('description').notNull(),
    type: text('type').notNull(),
    textChannel: boolean('text_channel').notNull().default(false),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    companyId: integer('company_id'),
    ...timestamps,
  },
  (t) => [index('saved_commands_company_idx').on(t.companyId), index('saved_commands_device_idx').on(t.deviceId)],
);
export type SavedCommandRow = typeof savedCommands.$inferSelect;
