import { bigserial, index, integer, text, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/** Every decision on an inventory item (created, assigned, revoked, transferred, deleted). Kept after the item is deleted. */
export const inventoryHistory = ops.table(
  'inventory_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    inventoryId: integer('inventory_id').notNull(),
    action: text('action', { enum: ['created', 'assigned', 'revoked', 'transferred', 'deleted'] }).notNull(),
    fromCompanyId: integer('from_company_id'),
    toCompanyId: integer('to_company_id'),
    fromTruckId: integer('from_truck_id'),
    toTruckId: integer('to_truck_id'),
    actorUserId: integer('actor_user_id').notNull(),
    reason: text('reason'),
    at: timestamp('at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [index('inventory_history_item_idx').on(t.inventoryId, t.at)],
);
export type InventoryHistoryRow = typeof inventoryHistory.$inferSelect;
