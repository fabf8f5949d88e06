import { z } from 'zod';
import { idParam, ref } from './references';
import { OwnerCompanyInput } from './resource-endpoints';
import { defineEndpoint } from './endpoint';
import { Attributes, ErrorBody, IsoDateTime, repeated } from './common';
import type { Role } from './roles';

/** [longitude, latitude] in WGS84 degrees (GeoJSON order). */
export const RoutePoint = z.tuple([z.number().min(-180).max(180), z.number().min(-90).max(90)]).meta({ id: 'RoutePoint' });

/** Kinds of approved stop areas; `origin` / `destination` also start and complete journeys. */
export const RouteStopAreaKind = z.enum(['origin', 'destination', 'yard', 'border', 'weighbridge', 'rest', 'fuel', 'other']);
export type RouteStopAreaKind = z.infer<typeof RouteStopAreaKind>;

/** A circle where trucks may stop without raising an unauthorized-stop flag. */
export const RouteStopArea = z
  .object({
    kind: RouteStopAreaKind,
    name: z.string().max(128).optional(),
    center: RoutePoint,
    radiusM: z.number().min(10).max(20_000).describe('metres'),
  })
  .meta({ id: 'RouteStopArea' });
export type RouteStopArea = z.infer<typeof RouteStopArea>;

/** Per-route overrides of the deviation thresholds; omitted fields keep the service defaults. */
export const RouteThresholds = z
  .strictObject({
    offCorridorMeters: z
      .number()
      .min(0)
      .max(50_000)
      .optional()
      .describe('metres beyond the width before a fix counts as off corridor (default 500)'),
    offCorridorMinFixes: z.int().min(1).max(100).optional().describe('consecutive fixes beyond that line before opening (default 3)'),
    offCorridorMinSeconds: z.number().min(0).max(86_400).optional().describe('seconds beyond that line before opening (default 120)'),
    offCorridorClearFactor: z.number().min(0).max(1).optional().describe('clears once within this fraction of the width (default 0.8)'),
    stopSpeedKmh: z.number().min(0).max(50).optional().describe('km/h below which the truck counts as stopped (default 5)'),
    unauthorizedStopMinutes: z.number().min(0).max(1440).optional().describe('default 5'),
    overspeedSeconds: z.number().min(0).max(3600).optional().describe('default 30'),
    overspeedToleranceKmh: z.number().min(0).max(50).optional().describe('km/h allowed above the segment limit (default 0)'),
    signalLossMinutes: z.number().positive().max(1440).optional().describe('default 10'),
    signalLossEscalateMinutes: z.number().positive().max(10_080).optional().describe('default 120'),
    backtrackMeters: z
      .number()
      .positive()
      .max(100_000)
      .optional()
      .describe('metres of lost progress that count as wrong direction (default 2000)'),
    backtrackMinFixes: z.int().min(1).max(100).optional().describe('default 3'),
    backtrackResumeMeters: z.number().positive().max(100_000).optional().describe('forward progress that clears it (default 500)'),
    lateEtaToleranceMinutes: z.number().min(0).max(10_080).optional().describe('default 60'),
    lateEtaClearMarginMinutes: z.number().min(0).max(1440).optional().describe('default 5'),
  })
  .meta({ id: 'RouteThresholds' });
export type RouteThresholds = z.infer<typeof RouteThresholds>;

export const ROUTE_WIDTH_MIN_M = 50;
export const ROUTE_WIDTH_MAX_M = 20_000;
export const ROUTE_MAX_VERTICES = 100_000;

/**
 * A corridor route as clients write it. Give exactly one of `line` (one LineString) or `legs`
 * (LineStrings joined in order; a leg starting where the previous ended does not repeat the vertex).
 * `speedLimitsKmh` holds one limit for the whole route or one per segment of the joined line.
 * Geometry rules the schema cannot express (one of line/legs, segment count, total length) are
 * checked by the journey service and answered as 400 naming the field.
 */
export const RouteInput = z
  .object({
    code: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'lowercase letters, digits and -, at most 64')
      .nullable()
      .default(null)
      .describe('stable unique code, e.g. "northern-corridor"'),
    name: z.string().min(1).max(128),
    description: z.string().max(2000).nullable().default(null),
    line: z.array(RoutePoint).min(2).max(ROUTE_MAX_VERTICES).nullable().default(null),
    legs: z.array(z.array(RoutePoint).min(2).max(ROUTE_MAX_VERTICES)).min(1).max(100).nullable().default(null),
    widthM: z.number().min(ROUTE_WIDTH_MIN_M).max(ROUTE_WIDTH_MAX_M).describe('allowed distance from the centre line, metres'),
    speedLimitsKmh: z.array(z.number().min(5).max(200)).min(1).max(ROUTE_MAX_VERTICES).describe('km/h: one value, or one per segment'),
    stopAreas: z.array(RouteStopArea).max(1000).default([]),
    expectedDurationMinutes: z
      .number()
      .positive()
      .max(30 * 24 * 60),
    thresholds: RouteThresholds.default({}),
    countries: z
      .array(z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2 code'))
      .max(20)
      .default([]),
    attributes: Attributes.default({}),
    companyId: OwnerCompanyInput,
  })
  .meta({ id: 'RouteInput' });
export type RouteInput = z.infer<typeof RouteInput>;
export type RouteInputRaw = z.input<typeof RouteInput>;

export const Route = z
  .object({
    id: z.number().int().positive(),
    code: z.string().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    line: z.array(RoutePoint).nullable(),
    legs: z.array(z.array(RoutePoint)).nullable(),
    widthM: z.number(),
    speedLimitsKmh: z.array(z.number()),
    stopAreas: z.array(RouteStopArea),
    expectedDurationMinutes: z.number(),
    thresholds: RouteThresholds,
    countries: z.array(z.string()),
    attributes: Attributes,
    lengthM: z.number().describe('length of the joined line, metres'),
    segmentCount: z.number().int(),
    version: z.number().int().describe('incremented on every update'),
    companyId: z
      .number()
      .int()
      .nullable()
      .describe("the owning company; null: shared (the association's corridor routes), changed by staff only"),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'Route' });
export type Route = z.infer<typeof Route>;

export const RoutesQuery = z.object({
  id: repeated(ref('route', z.coerce.number().int().positive())).optional(),
  keyword: z.string().max(100).optional().describe('matches name, code and description'),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const routeReaders: Role[] = ['admin', 'association_officer', 'association_analyst', 'dispatcher', 'company_user'];
export const routeWriters: Role[] = ['admin', 'dispatcher'];

const tags = ['routes'];
const conflict = { description: 'The route is used by journeys', schema: ErrorBody };
export const routesEndpoints = [
  defineEndpoint({
    id: 'routes.list',
    method: 'get',
    path: '/routes',
    service: 'journey',
    tags,
    summary: 'List corridor routes',
    access: routeReaders,
    request: { query: RoutesQuery },
    responses: { 200: { description: 'Routes, by id', schema: z.array(Route) } },
  }),
  defineEndpoint({
    id: 'routes.create',
    method: 'post',
    path: '/routes',
    service: 'journey',
    tags,
    summary: 'Create a corridor route',
    access: routeWriters,
    request: { body: RouteInput },
    responses: { 200: { description: 'The created route', schema: Route }, 409: { description: 'The code is taken', schema: ErrorBody } },
  }),
  defineEndpoint({
    id: 'routes.get',
    method: 'get',
    path: '/routes/{id}',
    service: 'journey',
    tags,
    summary: 'One corridor route',
    access: routeReaders,
    request: { params: idParam('route') },
    responses: { 200: { description: 'The route', schema: Route } },
  }),
  defineEndpoint({
    id: 'routes.update',
    method: 'put',
    path: '/routes/{id}',
    service: 'journey',
    tags,
    summary: 'Replace a corridor route',
    description: 'Refused (409) while an active journey follows the route.',
    access: routeWriters,
    request: { params: idParam('route'), body: RouteInput },
    responses: { 200: { description: 'The updated route', schema: Route }, 409: conflict },
  }),
  defineEndpoint({
    id: 'routes.delete',
    method: 'delete',
    path: '/routes/{id}',
    service: 'journey',
    tags,
    summary: 'Delete a corridor route',
    description: 'Refused (409) while any journey refers to the route.',
    access: routeWriters,
    request: { params: idParam('route') },
    responses: { 204: { description: 'Deleted', schema: null }, 409: conflict },
  }),
] as const;
