import { pgSchema } from 'drizzle-orm/pg-core';

/** The geofence service's own PostgreSQL schema; no other service reads it. */
export const geofenceSchema = pgSchema('geofence');
