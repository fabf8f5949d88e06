import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, repeated } from './common';
import { PositionIdSchema, PositionMessage } from './positions';

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

export const PositionBatch = z
  .object({ positions: z.array(PositionInput).min(1).max(1000) })
  .meta({ id: 'PositionBatch' });

export const PositionBatchResult = z
  .object({ accepted: z.number().int(), ids: z.array(PositionIdSchema) })
  .meta({ id: 'PositionBatchResult' });

export const PositionsQuery = z.object({
  deviceId: repeated(ref('device', z.coerce.number().int().positive())).optional(),
  id: repeated(ref('position', z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER))).optional().describe('Position ids (Traccar id[])'),
  from: IsoDateTime.optional(),
  to: IsoDateTime.optional(),
  limit: z.coerce.number().int().min(1).max(50000).default(10000),
});

export const positionsEndpoints = [
  defineEndpoint({
    id: 'positions.list',
    method: 'get',
    path: '/positions',
    service: 'ops-api',
    summary: 'Latest position per device, or a device history',
    description:
      'Without parameters: the latest position of every device the caller may see. With deviceId, from and to: ' +
      'that history, oldest first (capped by limit). from and to must be given together.',
    tags: ['positions'],
    access: 'authenticated',
    companyScoped: true,
    request: { query: PositionsQuery },
    responses: { 200: { description: 'Positions', schema: z.array(PositionMessage) } },
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
] as const;
