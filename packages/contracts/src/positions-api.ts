import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, repeated } from './common';
import { Position, PositionIdSchema } from './positions';

/** One position as an integration pushes it in a JSON batch (POST /api/positions). */
export const PositionInput = z
  .object({
    uniqueId: ref('device', z.string().min(1).max(64), { by: 'uniqueId' }),
    fixTime: IsoDateTime,
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    speed: z.number().min(0).max(869).default(0).describe('knots'),
    course: z.number().min(0).max(360).default(0),
    altitude: z.number().nullable().optional(),
    accuracy: z.number().min(0).nullable().optional(),
    valid: z.boolean().default(true),
    attributes: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}),
  })
  .meta({ id: 'PositionInput' });
export type PositionInput = z.infer<typeof PositionInput>;

export const PositionBatch = z.object({ positions: z.array(PositionInput).min(1).max(1000) }).meta({ id: 'PositionBatch' });

export const PositionBatchResult = z
  .object({ accepted: z.number().int(), ids: z.array(PositionIdSchema) })
  .meta({ id: 'PositionBatchResult' });

export const PositionsQuery = z.object({
  deviceId: repeated(ref('device', z.coerce.number().int().positive())).optional(),
  id: repeated(ref('position', z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)))
    .optional()
    .describe('Position ids (Traccar id[])'),
  from: IsoDateTime.optional(),
  to: IsoDateTime.optional(),
  limit: z.coerce.number().int().min(1).max(50000).default(10000),
});

/** Traccar's export parameters: one device, a period, optionally only the positions inside a geofence. */
export const PositionsExportQuery = z.object({
  deviceId: ref('device', z.coerce.number().int().positive()),
  from: IsoDateTime,
  to: IsoDateTime,
  geofenceId: ref('geofence', z.coerce.number().int().positive())
    .optional()
    .describe('Only positions inside this geofence: those from its geofenceEnter event to the next geofenceExit'),
});

/** DELETE /positions: one device's positions over a period. */
export const PositionsDeleteQuery = z.object({
  deviceId: ref('device', z.coerce.number().int().positive()),
  from: IsoDateTime,
  to: IsoDateTime,
});
export const PositionIdParam = z.object({ id: ref('position', z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER)) });

export const GPX_MEDIA_TYPE = 'application/gpx+xml';
export const KML_MEDIA_TYPE = 'application/vnd.google-earth.kml+xml';

const exportAccess = 'authenticated' as const;
const exportNote =
  'Positions oldest first, streamed. The period may not exceed the report maximum (REPORT_MAX_PERIOD_DAYS); a device ' +
  'the caller may not see answers 404.';

export const positionsEndpoints = [
  defineEndpoint({
    id: 'positions.list',
    method: 'get',
    path: '/positions',
    service: 'ops-api',
    summary: 'Latest position per device, or a device history',
    description:
      'Without parameters: the latest position of every device the caller may see. With deviceId, from and to: ' +
      'that history, oldest first (capped by limit). from and to must be given together. As in Traccar, a history ' +
      `asked for with Accept: text/csv or ${GPX_MEDIA_TYPE} (one deviceId) answers the CSV or GPX export instead.`,
    tags: ['positions'],
    access: 'authenticated',
    companyScoped: true,
    request: { query: PositionsQuery },
    responses: { 200: { description: 'Positions', schema: z.array(Position) } },
  }),
  defineEndpoint({
    id: 'positions.push',
    method: 'post',
    path: '/positions',
    service: 'ingest',
    summary: 'Push a batch of positions (JSON)',
    description:
      'Each position is validated, identified by uniqueId against the device registry and published on positions.v1. ' +
      'The answer comes only after the bus confirmed the publish; a bus outage, or more pending positions than ingest can ' +
      'publish in time, answers 503 with Retry-After and nothing is acknowledged. ' +
      "A device's positions come only from the device: a `device` account reports for the devices linked to it (/permissions), " +
      'an administrator for any; any other uniqueId answers 404 like an unknown one, and nothing of the batch is published.',
    tags: ['positions'],
    access: ['admin', 'device'],
    request: { body: PositionBatch },
    responses: { 200: { description: 'All positions accepted', schema: PositionBatchResult } },
  }),
  defineEndpoint({
    id: 'positions.csv',
    method: 'get',
    path: '/positions/csv',
    service: 'ops-api',
    tags: ['positions'],
    access: exportAccess,
    companyScoped: true,
    summary: 'Export positions as CSV',
    description: `Traccar's columns (id, deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude, longitude, altitude, speed, course, address, accuracy), then the stored fields Traccar keeps as attributes and one column per attribute key. ${exportNote}`,
    request: { query: PositionsExportQuery },
    responses: { 200: { description: 'CSV (RFC 4180)', schema: z.string(), contentType: 'text/csv' } },
  }),
  defineEndpoint({
    id: 'positions.gpx',
    method: 'get',
    path: '/positions/gpx',
    service: 'ops-api',
    tags: ['positions'],
    access: exportAccess,
    companyScoped: true,
    summary: 'Export positions as GPX',
    description: `One track named after the device: a trkpt (lat, lon, ele, time) per position. ${exportNote}`,
    request: { query: PositionsExportQuery },
    responses: { 200: { description: 'GPX 1.0', schema: z.string(), contentType: GPX_MEDIA_TYPE } },
  }),
  defineEndpoint({
    id: 'positions.kml',
    method: 'get',
    path: '/positions/kml',
    service: 'ops-api',
    tags: ['positions'],
    access: exportAccess,
    companyScoped: true,
    summary: 'Export positions as KML',
    description: `A document named after the device with one LineString placemark (longitude,latitude,altitude per position). ${exportNote}`,
    request: { query: PositionsExportQuery },
    responses: { 200: { description: 'KML 2.2', schema: z.string(), contentType: KML_MEDIA_TYPE } },
  }),
  defineEndpoint({
    id: 'positions.delete',
    method: 'delete',
    path: '/positions',
    service: 'ops-api',
    tags: ['positions'],
    access: ['admin'],
    summary: "Delete a device's positions over a period",
    description:
      "Removes the stored positions (ClickHouse lightweight delete), then keeps the device's latest position consistent " +
      "(the cached latest and the device's positionId move to the newest position left). Audited (positions.delete).",
    request: { query: PositionsDeleteQuery },
    responses: { 204: { description: 'Deleted (also when there was nothing to delete)', schema: null } },
  }),
  defineEndpoint({
    id: 'positions.deleteOne',
    method: 'delete',
    path: '/positions/{id}',
    service: 'ops-api',
    tags: ['positions'],
    access: ['admin'],
    summary: 'Delete one position',
    description: 'As DELETE /positions for one position; an id that names no stored position answers 404. Audited (position.delete).',
    request: { params: PositionIdParam },
    responses: { 204: { description: 'Deleted', schema: null } },
  }),
] as const;
