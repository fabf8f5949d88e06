import { timestamp } from 'drizzle-orm/pg-core';

/** A UTC instant, read and written as a Date. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** created_at / updated_at on every table. */
export const timestamps = {
  createdAt: instant('created_at').defaultNow().notNull(),
  updatedAt: instant('updated_at').defaultNow().notNull(),
};
