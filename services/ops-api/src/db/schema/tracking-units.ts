import { sql } from 'drizzle-orm';
import { index, integer, jsonb, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Tracking units: device + SIM + installation on a truck; at most one active (not removed) unit per device. */
export const trackingUnits = ops.table(
  'tracking_units',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull(),
    truckId: integer('truck_id'),
    simIccid: text('sim_iccid'),
    simPhone: text('sim_phone'),
    simOperator: text('sim_operator'),
    installedAt: timestamp('installed_at', { withTimezone: true, mode: 'date' }),
    installedBy: text('installed_by'),
    removedAt: timestamp('removed_at', { withTimezone: true, mode: 'date' }),
    companyId: integer('company_id'),
    notes: text('notes'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('tracking_units_active_device_idx')
      .on(t.deviceId)
      .where(sql`${t.removedAt} is null`),
    index('tracking_units_company_idx').on(t.companyId),
    index('tracking_units_truck_idx').on(t.truckId),
  ],
);
export type TrackingUnitRow = typeof trackingUnits.$inferSelect;
