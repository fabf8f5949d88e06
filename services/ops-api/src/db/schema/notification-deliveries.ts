import { bigserial, index, integer, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/**
 * One delivery of one event through one channel to one recipient. The unique key makes the
 * events.v1 consumer idempotent: a redelivered event is not sent twice.
 */
export const notificationDeliveries = ops.table(
  'notification_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ruleId: integer('rule_id').notNull(),
    eventId: text('event_id').notNull(),
    channel: text('channel', { enum: ['web', 'mail', 'webhook', 'command'] }).notNull(),
    recipient: text('recipient').notNull(),
    userId: integer('user_id'),
    status: text('status', { enum: ['sent', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull(),
    error: text('error'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_once_idx').on(t.ruleId, t.eventId, t.channel, t.recipient),
    index('notification_deliveries_user_idx').on(t.userId, t.at),
  ],
);
export type NotificationDeliveryRow = typeof notificationDeliveries.$inferSelect;
