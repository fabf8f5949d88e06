import { index, integer, text, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/**
 * Journey flags opened on a company's trucks, as events.v1 reported them (one row per event id,
 * so redelivery counts once). Per-company flag counts for ratings and dashboards are aggregates
 * over this table; the company is the device's company when the event arrived.
 */
export const companyFlags = ops.table(
  'company_flags',
  {
    eventId: text('event_id').primaryKey(),
    companyId: integer('company_id').notNull(),
    deviceId: integer('device_id').notNull(),
    journeyId: text('journey_id'),
    flagType: text('flag_type').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('company_flags_company_idx').on(t.companyId, t.openedAt), index('company_flags_opened_idx').on(t.openedAt)],
);
export type CompanyFlagRow = typeof companyFlags.$inferSelect;
