import { bigserial, index, integer } from 'drizzle-orm/pg-core';
import { statusChange } from './columns';
import { ops } from './ops-schema';
import { shipments } from './shipments';

/** Every state a shipment entered: from, to, who and when (creation has from = null). */
export const shipmentStatusHistory = ops.table(
  'shipment_status_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    shipmentId: integer('shipment_id')
      .notNull()
      .references(() => shipments.id, { onDelete: 'cascade' }),
    ...statusChange,
  },
  (t) => [index('shipment_status_history_shipment_idx').on(t.shipmentId, t.at)],
);
export type ShipmentStatusHistoryRow = typeof shipmentStatusHistory.$inferSelect;
