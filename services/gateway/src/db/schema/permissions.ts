import { index, integer, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { PermissionKey } from '@corridor/contracts';
import { identity } from './identity-schema';

/** Traccar-style links between two objects: owner (user, device, group) → property. */
export const permissions = identity.table(
  'permissions',
  {
    id: serial('id').primaryKey(),
    ownerType: text('owner_type').$type<PermissionKey>().notNull(),
    ownerId: integer('owner_id').notNull(),
    propertyType: text('property_type').$type<PermissionKey>().notNull(),
    propertyId: integer('property_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    uniqueIndex('permissions_link_idx').on(t.ownerType, t.ownerId, t.propertyType, t.propertyId),
    index('permissions_property_idx').on(t.propertyType, t.propertyId),
  ],
);
export type PermissionRow = typeof permissions.$inferSelect;
