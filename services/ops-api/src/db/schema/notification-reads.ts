import { bigint, integer, primaryKey, timestamp } from 'drizzle-orm/pg-core';
import { notifications } from './notifications';
import { ops } from './ops-schema';

/** Who read which notification, and when (one row per user and notification). */
export const notificationReads = ops.table(
  'notification_reads',
  {
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull(),
    readAt: timestamp('read_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.notificationId] })],
);
