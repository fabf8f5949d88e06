import { z } from 'zod';
import { defineEndpoint } from './endpoint';

export const ServerInfo = z
  .object({
    id: z.number().int(),
    version: z.string(),
    registration: z.boolean(),
    readonly: z.boolean(),
    map: z.string().nullable(),
    latitude: z.number(),
    longitude: z.number(),
    zoom: z.number().int(),
    openIdEnabled: z.boolean(),
    openIdForce: z.boolean(),
    attributes: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Server' });

export const systemEndpoints = [
  defineEndpoint({
    id: 'openapi.get', method: 'get', path: '/openapi.json', service: 'gateway', tags: ['system'],
    summary: 'This OpenAPI 3.1 document (generated from the zod contracts)', access: 'public',
    responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  }),
  defineEndpoint({
    id: 'server.get', method: 'get', path: '/server', service: 'gateway', tags: ['system'],
    summary: 'Server information (readable before login, as Traccar clients expect)', access: 'public',
    responses: { 200: { description: 'Server', schema: ServerInfo } },
  }),
] as const;
