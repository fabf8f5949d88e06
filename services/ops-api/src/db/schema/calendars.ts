import { index, integer, jsonb, serial, text } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Traccar calendars: data is the base64 iCalendar document as the client sent it. */
export const calendars = ops.table(
  'calendars',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    data: text('data').notNull(),
    companyId: integer('company_id'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [index('calendars_company_idx').on(t.companyId)],
);
export type CalendarRow = typeof calendars.$inferSelect;
