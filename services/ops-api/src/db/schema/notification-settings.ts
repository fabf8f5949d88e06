import { integer, jsonb, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

export type ChannelPrefs = { web: boolean; email: boolean; webhook: boolean };

/** A user's notification channels per notification type (types absent use the defaults). */
export const notificationSettings = ops.table('notification_settings', {
  userId: integer('user_id').primaryKey(),
  channels: jsonb('channels').$type<Record<string, ChannelPrefs>>().notNull().default({}),
  email: text('email'),
  webhookUrl: text('webhook_url'),
  ...timestamps,
});
export type NotificationSettingsRow = typeof notificationSettings.$inferSelect;
