import { bigint, boolean, index, integer, jsonb, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { timestamps } from './columns';
import { ops } from './ops-schema';

export const devices = ops.table(
  'devices',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    uniqueId: text('unique_id').notNull(),
    status: text('status', { enum: ['online', 'offline', 'unknown', 'pending'] })
      .notNull()
      .default('unknown'),
    disabled: boolean('disabled').notNull().default(false),
    lastUpdate: timestamp('last_update', { withTimezone: true, mode: 'date' }),
    positionId: bigint('position_id', { mode: 'number' }),
    groupId: integer('group_id'),
    calendarId: integer('calendar_id'),
    companyId: integer('company_id'),
    phone: text('phone'),
    model: text('model'),
    contact: text('contact'),
    category: text('category'),
    expirationTime: timestamp('expiration_time', { withTimezone: true, mode: 'date' }),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    /** The protocol the device is bound to: its administrator's, or the one it first spoke (from device-status.v1); null while unbound. */
    protocol: text('protocol'),
    ...timestamps,
  },
  (t) => [uniqueIndex('devices_unique_id_idx').on(t.uniqueId), index('devices_company_idx').on(t.companyId)],
);
export type DeviceRow = typeof devices.$inferSelect;
