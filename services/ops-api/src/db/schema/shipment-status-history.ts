import { bigserial, index, integer, text, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';
import { shipments } from './shipments';

/** Every state a shipment entered: from, to, who and when (creation has from = null). */
export const shipmentStatusHistory = ops.table(
  'shipment_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shipmentId: integer('shipment_id').notNull().references(() => shipments.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
    byUserId: integer('by_user_id').notNull(),
    byEmail: text('by_email').notNull(),
    reason: text('reason'),
  },
  (t) => [index('shipment_status_history_shipment_idx').on(t.shipmentId, t.at)],
);
export type ShipmentStatusHistoryRow = typeof shipmentStatusHistory.$inferSelect;
