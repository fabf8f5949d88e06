import { z } from 'zod';
import { idParam, ref } from './references';
import { OwnerCompanyInput } from './resource-endpoints';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, Pagination, page, repeated } from './common';

/**
 * Geofences in Traccar's shape (id, name, description, area, calendarId, attributes) plus the
 * corridor's kind and country. `area` is Traccar's latitude-first WKT:
 *   CIRCLE (lat lon, radius)   POLYGON ((lat lon, ...), (hole ...))   LINESTRING (lat lon, ...)
 * (a LINESTRING is a corridor of half-width attributes.polylineDistance metres, 25 by default).
 */
export const GeofenceKind = z.enum(['border_post', 'port', 'inland_depot', 'weighbridge', 'checkpoint', 'restricted', 'other']);
export type GeofenceKind = z.infer<typeof GeofenceKind>;

/** Known attributes (Traccar's plus the hysteresis settings); any other key is kept as given. */
export const GeofenceAttributes = z
  .object({
    polylineDistance: z.number().optional().describe('LINESTRING corridor half-width, metres (default 25)'),
    color: z.string().max(32).optional(),
    speedLimit: z.number().min(0).max(869).optional().describe('knots, as Traccar'),
    minDwellSeconds: z
      .number()
      .int()
      .min(0)
      .max(86_400)
      .optional()
      .describe('an enter counts once the device stayed inside this long (0 = at the first inside fix)'),
    exitMarginMeters: z
      .number()
      .min(0)
      .max(10_000)
      .optional()
      .describe('an exit counts only beyond this distance outside the fence (against GPS jitter)'),
  })
  .catchall(z.unknown())
  .meta({ id: 'GeofenceAttributes' });
export type GeofenceAttributes = z.infer<typeof GeofenceAttributes>;

const countryCode = z.string().regex(/^[A-Z]{2}$/, 'ISO 3166-1 alpha-2, e.g. KE');

export const Geofence = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    description: z.string().optional().describe('absent when none'),
    area: z.string().describe('Traccar WKT, latitude first'),
    calendarId: z.number().int().min(0).describe('0 = none (Traccar): always active'),
    attributes: GeofenceAttributes,
    kind: GeofenceKind,
    country: z.string().nullable(),
    companyId: z
      .number()
      .int()
      .nullable()
      .describe("the owning company; null: shared (seeded border posts, ports, the association's fences), changed by staff only"),
  })
  .meta({ id: 'Geofence' });
export type Geofence = z.infer<typeof Geofence>;

export const GeofenceInput = z
  .object({
    name: z.string().trim().min(1).max(128),
    description: z.string().max(2000).nullable().default(null),
    area: z.string().min(1).max(500_000).optional().describe('Traccar WKT, latitude first; or give `geometry`'),
    geometry: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        'GeoJSON alternative to `area` ([lon, lat]): Polygon, Point (+ radius) or LineString (+ attributes.polylineDistance), bare or as a Feature',
      ),
    radius: z.number().optional().describe('metres, for a GeoJSON Point geometry'),
    calendarId: z
      .preprocess((v) => (v === 0 ? null : v), ref('calendar', z.number().int().positive()).nullable())
      .default(null)
      .describe('Traccar clients write 0 for "no calendar"; it is read as null'),
    attributes: GeofenceAttributes.default({}),
    kind: GeofenceKind.default('other'),
    country: countryCode.nullable().default(null),
    companyId: OwnerCompanyInput,
  })
  .superRefine((v, ctx) => {
    if ((v.area === undefined) === (v.geometry === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['area'], message: 'give exactly one of area (Traccar WKT) or geometry (GeoJSON)' });
    }
    if (v.radius !== undefined && v.geometry === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['radius'],
        message: 'radius goes with a GeoJSON Point geometry; in WKT write CIRCLE (lat lon, radius)',
      });
    }
  })
  .meta({ id: 'GeofenceInput' });
export type GeofenceInput = z.infer<typeof GeofenceInput>;
export type GeofenceInputBody = z.input<typeof GeofenceInput>;

const flag = z.stringbool().optional();
const positiveId = z.coerce.number().int().positive();

export const GeofencesQuery = z.object({
  all: flag.describe('Traccar list param; every signed-in user sees every geofence, so it changes nothing'),
  userId: ref('user', positiveId).optional().describe('Traccar list param; geofences are not owned per user here, so it changes nothing'),
  deviceId: ref('device', positiveId)
    .optional()
    .describe(
      'only the geofences linked to this device (Traccar: what a client ticks as linked; fences applied through its group or to every truck are not listed)',
    ),
  groupId: ref('group', positiveId).optional().describe('only the geofences linked to this group'),
  kind: repeated(GeofenceKind).optional(),
  country: countryCode.optional(),
  keyword: z.string().max(100).optional().describe('searches name and description'),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export type GeofencesQuery = z.infer<typeof GeofencesQuery>;

/** A fence ↔ device or fence ↔ group link (see geofenceAppliesTo for what links do). */
export const GeofenceLinkInput = z
  .object({
    deviceId: ref('device', z.number().int().positive()).optional(),
    groupId: ref('group', z.number().int().positive()).optional(),
  })
  .refine((v) => (v.deviceId === undefined) !== (v.groupId === undefined), {
    path: ['deviceId'],
    message: 'give exactly one of deviceId or groupId',
  })
  .meta({ id: 'GeofenceLinkInput' });
export type GeofenceLinkInput = z.infer<typeof GeofenceLinkInput>;

export const GeofenceLink = z
  .object({
    geofenceId: z.number().int().positive(),
    deviceId: z.number().int().nullable(),
    groupId: z.number().int().nullable(),
  })
  .meta({ id: 'GeofenceLink' });
export type GeofenceLink = z.infer<typeof GeofenceLink>;

export const GeofenceInsideDevice = z
  .object({
    deviceId: z.number().int().positive(),
    enteredAt: IsoDateTime.describe('time of the first inside fix of this visit'),
    dwellSeconds: z.number().describe('seconds inside so far'),
  })
  .meta({ id: 'GeofenceInsideDevice' });
export type GeofenceInsideDevice = z.infer<typeof GeofenceInsideDevice>;
export const GeofenceInsidePage = page(GeofenceInsideDevice, 'GeofenceInsidePage');

const timezone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone, e.g. Africa/Nairobi');

export const DwellStatsQuery = Pagination.extend({
  from: IsoDateTime,
  to: IsoDateTime,
  geofenceId: repeated(ref('geofence', positiveId)).optional(),
  kind: repeated(GeofenceKind).optional(),
  timezone: timezone.default('UTC').describe('days are counted in this zone'),
})
  .refine((q) => Date.parse(q.from) < Date.parse(q.to), { path: ['to'], message: 'to must be after from' })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= 366 * 86_400_000, { path: ['to'], message: 'the period is at most 366 days' });
export type DwellStatsQuery = z.infer<typeof DwellStatsQuery>;

/** Dwell time of the visits that ended (exit event) on `day`, in seconds. */
export const DwellStatsRow = z
  .object({
    geofenceId: z.number().int().positive(),
    geofenceName: z.string().nullable(),
    day: z.iso.date(),
    count: z.number().int(),
    avgSeconds: z.number(),
    p50Seconds: z.number(),
    p90Seconds: z.number(),
    maxSeconds: z.number(),
  })
  .meta({ id: 'GeofenceDwellStats' });
export type DwellStatsRow = z.infer<typeof DwellStatsRow>;
export const DwellStatsPage = page(DwellStatsRow, 'GeofenceDwellStatsPage');

const LonLat = z.tuple([z.number(), z.number()]);
/** A fence's area parsed, [lon, lat] (GeoJSON order), for consumers that test containment themselves. */
export const GeofenceShape = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('circle'), center: LonLat, radius: z.number().describe('metres') }),
    z.object({ kind: z.literal('polygon'), rings: z.array(z.array(LonLat)).describe('outer ring first, then holes; closed') }),
    z.object({ kind: z.literal('line'), points: z.array(LonLat), width: z.number().describe('corridor half-width, metres') }),
  ])
  .meta({ id: 'GeofenceShape' });
export type GeofenceShape = z.infer<typeof GeofenceShape>;

/**
 * geofences.v1 (compacted, key = geofence id): the latest definition with its links, or a
 * tombstone {id, deleted: true} when the fence is deleted.
 */
export const GeofenceDefinitionMessage = z
  .union([
    Geofence.extend({
      companyId: z.number().int().nullable().default(null).describe('absent in definitions written before fences had owners'),
      description: z.string().nullish().describe("null in definitions written before the API answered Traccar's shape"),
      calendarId: z.number().int().nullable().describe('0 or null: none'),
      links: z.object({ deviceIds: z.array(z.number().int()), groupIds: z.array(z.number().int()) }),
      shape: GeofenceShape.optional().describe('the area parsed (absent in definitions written before it was carried)'),
      deleted: z.literal(false).default(false),
    }),
    z.object({ id: z.number().int().positive(), deleted: z.literal(true) }),
  ])
  .meta({ id: 'GeofenceDefinition' });
export type GeofenceDefinitionMessage = z.infer<typeof GeofenceDefinitionMessage>;

const tags = ['geofences'];
const writers = ['admin', 'dispatcher', 'association_officer'] as const;
const areaErrors =
  'A bad area answers 400 VALIDATION_FAILED with details [{in, path, code, message}]: path points into `area` ' +
  '(e.g. area.0.3 = ring 0, point 3) or `geometry`; codes include syntax, unknown_shape, coordinate_out_of_range, ' +
  'too_few_points, degenerate_ring, self_intersection, rings_intersect, hole_outside_outer, radius_out_of_range, ' +
  'polyline_distance_out_of_range, crosses_antimeridian (fences across ±180° are rejected).';

export const geofencesEndpoints = [
  defineEndpoint({
    id: 'geofences.list',
    method: 'get',
    path: '/geofences',
    service: 'geofence',
    tags,
    summary: 'List geofences',
    access: 'authenticated',
    request: { query: GeofencesQuery },
    responses: { 200: { description: 'Geofences, by id', schema: z.array(Geofence) } },
  }),
  defineEndpoint({
    id: 'geofences.create',
    method: 'post',
    path: '/geofences',
    service: 'geofence',
    tags,
    summary: 'Create a geofence',
    description: areaErrors,
    access: writers,
    request: { body: GeofenceInput },
    responses: { 200: { description: 'The created geofence (area normalised to Traccar WKT)', schema: Geofence } },
  }),
  defineEndpoint({
    id: 'geofences.stats.dwell',
    method: 'get',
    path: '/geofences/stats/dwell',
    service: 'geofence',
    tags,
    companyScoped: true,
    summary: 'Dwell time statistics per geofence and day',
    description:
      'Visits that ended (geofenceExit) in [from, to), grouped by fence and by the day of the exit in `timezone`. Company users see their own devices only.',
    access: 'authenticated',
    request: { query: DwellStatsQuery },
    responses: { 200: { description: 'One row per fence and day, by day then fence', schema: DwellStatsPage } },
  }),
  defineEndpoint({
    id: 'geofences.get',
    method: 'get',
    path: '/geofences/{id}',
    service: 'geofence',
    tags,
    summary: 'One geofence',
    access: 'authenticated',
    request: { params: idParam('geofence') },
    responses: { 200: { description: 'The geofence', schema: Geofence } },
  }),
  defineEndpoint({
    id: 'geofences.update',
    method: 'put',
    path: '/geofences/{id}',
    service: 'geofence',
    tags,
    summary: 'Replace a geofence',
    description: areaErrors,
    access: writers,
    request: { params: idParam('geofence'), body: GeofenceInput },
    responses: { 200: { description: 'The updated geofence', schema: Geofence } },
  }),
  defineEndpoint({
    id: 'geofences.delete',
    method: 'delete',
    path: '/geofences/{id}',
    service: 'geofence',
    tags,
    summary: 'Delete a geofence (and its links)',
    access: writers,
    request: { params: idParam('geofence') },
    responses: { 204: { description: 'Deleted', schema: null } },
  }),
  defineEndpoint({
    id: 'geofences.links.list',
    method: 'get',
    path: '/geofences/{id}/links',
    service: 'geofence',
    tags,
    summary: 'Devices and groups a geofence is linked to (an association fence applies to every truck regardless; any other only to these)',
    access: 'authenticated',
    request: { params: idParam('geofence') },
    responses: { 200: { description: 'Links', schema: z.array(GeofenceLink) } },
  }),
  defineEndpoint({
    id: 'geofences.links.create',
    method: 'post',
    path: '/geofences/{id}/links',
    service: 'geofence',
    tags,
    summary: 'Link a geofence to a device or a group',
    access: writers,
    request: { params: idParam('geofence'), body: GeofenceLinkInput },
    responses: { 200: { description: 'The link (409 if it exists)', schema: GeofenceLink } },
  }),
  defineEndpoint({
    id: 'geofences.links.delete',
    method: 'delete',
    path: '/geofences/{id}/links',
    service: 'geofence',
    tags,
    summary: 'Remove a device or group link',
    access: writers,
    request: { params: idParam('geofence'), body: GeofenceLinkInput },
    responses: { 204: { description: 'Removed', schema: null } },
  }),
  defineEndpoint({
    id: 'geofences.inside',
    method: 'get',
    path: '/geofences/{id}/inside',
    service: 'geofence',
    tags,
    companyScoped: true,
    summary: 'Devices inside a geofence now',
    description: 'Devices whose enter has counted and whose exit has not. Company users see their own devices only.',
    access: 'authenticated',
    request: { params: idParam('geofence'), query: Pagination },
    responses: { 200: { description: 'Devices inside, longest first', schema: GeofenceInsidePage } },
  }),
] as const;
