import { index, integer, jsonb, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { GeofenceAttributes } from '@corridor/contracts';
import { timestamps } from './columns';
import { geofenceSchema } from './geofence-schema';

export const geofenceKinds = ['border_post', 'port', 'inland_depot', 'weighbridge', 'checkpoint', 'restricted', 'other'] as const;

/** Geofences in Traccar's shape; `area` is stored as Traccar writes it (latitude-first WKT). */
export const geofences = geofenceSchema.table(
  'geofences',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    area: text('area').notNull(),
    calendarId: integer('calendar_id'),
    attributes: jsonb('attributes').$type<GeofenceAttributes>().notNull().default({}),
    kind: text('kind', { enum: geofenceKinds }).notNull().default('other'),
    country: text('country'),
    /** The @corridor/geodata place id of a seeded fence (keeps seeding idempotent); null for user fences. */
    seedKey: text('seed_key'),
    /** The owning company; null for shared fences (seeded places, the association's), which only staff change. */
    companyId: integer('company_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('geofences_seed_key_idx').on(t.seedKey),
    index('geofences_kind_idx').on(t.kind),
    index('geofences_company_idx').on(t.companyId),
  ],
);
export type GeofenceRow = typeof geofences.$inferSelect;
export type NewGeofenceRow = typeof geofences.$inferInsert;
