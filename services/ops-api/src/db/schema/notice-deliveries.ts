import { bigint, bigserial, index, integer, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/**
 * One delivery of one inbox notice (certificates, complaints, sanctions) to one addressed user
 * through one of their /settings/notification channels (mail or webhook). The unique key is the
 * claim: the row is written before the send, so a notice reaches a user once per channel however
 * often it is looked at (several instances, a retry).
 */
export const noticeDeliveries = ops.table(
  'notice_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    notificationId: bigint('notification_id', { mode: 'number' }).notNull(),
    userId: integer('user_id').notNull(),
    channel: text('channel', { enum: ['mail', 'webhook'] }).notNull(),
    recipient: text('recipient').notNull(),
    status: text('status', { enum: ['sending', 'sent', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    uniqueIndex('notice_deliveries_once_idx').on(t.notificationId, t.userId, t.channel),
    index('notice_deliveries_user_idx').on(t.userId, t.at),
  ],
);
export type NoticeDeliveryRow = typeof noticeDeliveries.$inferSelect;
