import { bigserial, doublePrecision, index, integer, text, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';
import { shipments } from './shipments';

/** Track details a transporter reports: where the shipment was, when, and what happened. */
export const shipmentProgressUpdates = ops.table(
  'shipment_progress_updates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).notNull(),
    kind: text('kind').notNull(),
    locationName: text('location_name'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    note: text('note'),
    recordedByUserId: integer('recorded_by_user_id').notNull(),
    recordedByEmail: text('recorded_by_email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [index('shipment_progress_shipment_idx').on(t.shipmentId, t.at)],
);
export type ShipmentProgressRow = typeof shipmentProgressUpdates.$inferSelect;
