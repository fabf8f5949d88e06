import { bigint, doublePrecision, index, integer, text, timestamp } from 'drizzle-orm/pg-core';
import { geofenceSchema } from './geofence-schema';

/**
 * Enter, exit and crossed events as the evaluator emits them (the same ids as in ClickHouse and on
 * events.v1, so a redelivered position inserts nothing new). No foreign key to geofences: the
 * history outlives a deleted fence.
 */
export const geofenceEvents = geofenceSchema.table(
  'geofence_events',
  {
    id: text('id').primaryKey(),
    type: text('type', { enum: ['geofenceEnter', 'geofenceExit', 'geofenceCrossed'] }).notNull(),
    deviceId: integer('device_id').notNull(),
    geofenceId: integer('geofence_id').notNull(),
    eventTime: timestamp('event_time', { withTimezone: true, mode: 'date' }).notNull(),
    positionId: bigint('position_id', { mode: 'number' }),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    /** exit only: the enter time of the visit and its length */
    enteredAt: timestamp('entered_at', { withTimezone: true, mode: 'date' }),
    dwellSeconds: doublePrecision('dwell_seconds'),
    companyId: integer('company_id'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
  },
  (t) => [
    index('geofence_events_fence_time_idx').on(t.geofenceId, t.eventTime),
    index('geofence_events_device_time_idx').on(t.deviceId, t.eventTime),
  ],
);
export type GeofenceEventRow = typeof geofenceEvents.$inferSelect;
