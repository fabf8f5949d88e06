import { sql } from 'drizzle-orm';
import { check, index, integer, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { geofenceSchema } from './geofence-schema';
import { geofences } from './geofences';

/** Fence ↔ device and fence ↔ group links (exactly one of the two per row); what they do: contracts geofenceAppliesTo. */
export const geofenceLinks = geofenceSchema.table(
  'geofence_links',
  {
    id: serial('id').primaryKey(),
    geofenceId: integer('geofence_id')
      .notNull()
      .references(() => geofences.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id'),
    groupId: integer('group_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    check('geofence_links_one_target', sql`num_nonnulls(${t.deviceId}, ${t.groupId}) = 1`),
    uniqueIndex('geofence_links_device_idx').on(t.geofenceId, t.deviceId),
    uniqueIndex('geofence_links_group_idx').on(t.geofenceId, t.groupId),
    index('geofence_links_by_device_idx').on(t.deviceId),
    index('geofence_links_by_group_idx').on(t.groupId),
  ],
);
export type GeofenceLinkRow = typeof geofenceLinks.$inferSelect;
