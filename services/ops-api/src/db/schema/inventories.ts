import { index, integer, jsonb, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

/** Stock of tracking units: one item per device, with the company holding authority over it. */
export const inventories = ops.table(
  'inventories',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull(),
    serialNumber: text('serial_number'),
    status: text('status', { enum: ['in_stock', 'assigned', 'revoked'] })
      .notNull()
      .default('in_stock'),
    companyId: integer('company_id'),
    truckId: integer('truck_id'),
    assignedAt: timestamp('assigned_at', { withTimezone: true, mode: 'date' }),
    notes: text('notes'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [uniqueIndex('inventories_device_idx').on(t.deviceId), index('inventories_company_idx').on(t.companyId, t.status)],
);
export type InventoryRow = typeof inventories.$inferSelect;
