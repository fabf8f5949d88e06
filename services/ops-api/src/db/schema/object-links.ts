import type { ObjectLinkOwner, ObjectLinkProperty } from '@corridor/contracts';
import { index, integer, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/**
 * Traccar's links of drivers, computed attributes, saved commands, maintenance and calendars to a
 * device, a group or a user (contracts object-links.ts). A row is removed with its owner or its
 * object (the services deleting those remove their links).
 */
export const objectLinks = ops.table(
  'object_links',
  {
    id: serial('id').primaryKey(),
    ownerType: text('owner_type').$type<ObjectLinkOwner>().notNull(),
    ownerId: integer('owner_id').notNull(),
    propertyType: text('property_type').$type<ObjectLinkProperty>().notNull(),
    propertyId: integer('property_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    uniqueIndex('object_links_link_idx').on(t.ownerType, t.ownerId, t.propertyType, t.propertyId),
    index('object_links_property_idx').on(t.propertyType, t.propertyId),
  ],
);
export type ObjectLinkRow = typeof objectLinks.$inferSelect;
