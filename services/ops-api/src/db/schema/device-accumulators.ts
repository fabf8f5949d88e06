import { doublePrecision, integer, timestamp } from 'drizzle-orm/pg-core';
import { ops } from './ops-schema';

/**
 * Accumulators set by hand (Traccar PUT /devices/{id}/accumulators): totalDistance (m) and hours
 * (ms) as set, and when. Ingest takes them as the base of the device's next position (through the
 * cache); until that position exists, the maintenance schedule reads them from here.
 */
export const deviceAccumulators = ops.table('device_accumulators', {
  deviceId: integer('device_id').primaryKey(),
  totalDistance: doublePrecision('total_distance'),
  hours: doublePrecision('hours'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).defaultNow().notNull(),
});
export type DeviceAccumulatorRow = typeof deviceAccumulators.$inferSelect;
