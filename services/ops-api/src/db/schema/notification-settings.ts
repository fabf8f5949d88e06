import { integer, jsonb, text, timestamp } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

export type ChannelPrefs = { web: boolean; email: boolean; webhook: boolean };

/**
 * A user's notification channels per notification type (types absent use the defaults). `email` is
 * a verified address (mail goes there, else to the account email); `pendingEmail` waits for the
 * link mailed to it (only the SHA-256 of its token is kept) and is never used before.
 */
export const notificationSettings = ops.table('notification_settings', {
  userId: integer('user_id').primaryKey(),
  channels: jsonb('channels').$type<Record<string, ChannelPrefs>>().notNull().default({}),
  email: text('email'),
  pendingEmail: text('pending_email'),
  pendingEmailToken: text('pending_email_token').unique(),
  pendingEmailExpiresAt: timestamp('pending_email_expires_at', { withTimezone: true, mode: 'date' }),
  webhookUrl: text('webhook_url'),
  ...timestamps,
});
export type NotificationSettingsRow = typeof notificationSettings.$inferSelect;
