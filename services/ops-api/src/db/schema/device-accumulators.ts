import { doublePrecision, integer, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/**
 * Accumulators set by hand (Traccar PUT /devices/{id}/accumulators): the value set and the device's
 * own reading (odometer m / hours ms) at that moment, so later values = set + (reading − base).
 */
export const deviceAccumulators = ops.table('device_accumulators', {
  deviceId: integer('device_id').primaryKey(),
  totalDistance: doublePrecision('total_distance'),
  totalDistanceBase: doublePrecision('total_distance_base'),
  hours: doublePrecision('hours'),
  hoursBase: doublePrecision('hours_base'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
});
export type DeviceAccumulatorRow = typeof deviceAccumulators.$inferSelect;
