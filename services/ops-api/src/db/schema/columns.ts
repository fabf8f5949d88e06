import { integer, text, timestamp } from 'drizzle-orm/pg-core';

/** created_at / updated_at on every table. */
export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
};

/** One status change of a status history table: from (null at creation), to, when, by whom and why. */
export const statusChange = {
  fromStatus: text('from_status'),
  toStatus: text('to_status').notNull(),
  at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  byUserId: integer('by_user_id').notNull(),
  byEmail: text('by_email').notNull(),
  reason: text('reason'),
};
