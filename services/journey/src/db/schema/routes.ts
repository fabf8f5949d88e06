import { doublePrecision, integer, jsonb, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { RouteStopArea, RouteThresholds } from '@corridor/contracts';
import { timestamps } from './columns';
import { journeySchema } from './journey-schema';

type Point = [number, number];

/** Corridor routes: a line (or legs) with a width, speed limits per segment and approved stop areas. */
export const routes = journeySchema.table(
  'routes',
  {
    id: serial('id').primaryKey(),
    code: text('code'),
    name: text('name').notNull(),
    description: text('description'),
    line: jsonb('line').$type<Point[]>(),
    legs: jsonb('legs').$type<Point[][]>(),
    widthM: doublePrecision('width_m').notNull(),
    speedLimitsKmh: jsonb('speed_limits_kmh').$type<number[]>().notNull(),
    stopAreas: jsonb('stop_areas').$type<RouteStopArea[]>().notNull().default([]),
    expectedDurationMinutes: doublePrecision('expected_duration_minutes').notNull(),
    thresholds: jsonb('thresholds').$type<RouteThresholds>().notNull().default({}),
    countries: text('countries').array().notNull().default([]),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    lengthM: doublePrecision('length_m').notNull(),
    segmentCount: integer('segment_count').notNull(),
    version: integer('version').notNull().default(1),
    /** The owning company; null for the association's shared routes, which only staff change. */
    companyId: integer('company_id'),
    ...timestamps,
  },
  (t) => [uniqueIndex('routes_code_idx').on(t.code)],
);
export type RouteRow = typeof routes.$inferSelect;
export type NewRouteRow = typeof routes.$inferInsert;
