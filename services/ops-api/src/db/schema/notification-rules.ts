import { boolean, index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar-style notification rules: event type (+ alarms) of which devices → which recipients, through which channels. */
export const notificationRules = ops.table(
  'notification_rules',
  {
    id: serial('id').primaryKey(),
    type: text('type').notNull(),
    description: text('description'),
    always: boolean('always').notNull().default(false),
    deviceIds: jsonb('device_ids').$type<number[]>().notNull().default([]),
    groupIds: jsonb('group_ids').$type<number[]>().notNull().default([]),
    commandId: integer('command_id'),
    alarms: jsonb('alarms').$type<string[]>().notNull().default([]),
    notificators: jsonb('notificators').$type<('web' | 'mail' | 'webhook' | 'command')[]>().notNull(),
    recipients: jsonb('recipients').$type<{ userId: number; email: string }[]>().notNull().default([]),
    webhookUrl: text('webhook_url'),
    calendarId: integer('calendar_id'),
    companyId: integer('company_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('notification_rules_type_idx').on(t.type, t.companyId)],
);
export type NotificationRuleRow = typeof notificationRules.$inferSelect;
