import { z } from 'zod';
import { defineEndpoint } from './endpoint';

/** Traccar's Server settings that its web app edits and reads back; kept as given. */
const traccarServerFields = {
  deviceReadonly: z.boolean().optional(),
  limitCommands: z.boolean().optional(),
  forceSettings: z.boolean().optional(),
  bingKey: z.string().max(512).optional(),
  mapUrl: z.string().max(2048).optional(),
  overlayUrl: z.string().max(2048).optional(),
  poiLayer: z.string().max(2048).optional(),
  announcement: z.string().max(4000).optional(),
  coordinateFormat: z.string().max(32).optional(),
  fixedEmail: z.boolean().optional(),
};

export const ServerInfo = z
  .object({
    id: z.number().int(),
    version: z.string(),
    registration: z.boolean(),
    readonly: z.boolean(),
    map: z.string().optional().describe('absent when none'),
    latitude: z.number(),
    longitude: z.number(),
    zoom: z.number().int(),
    ...traccarServerFields,
    openIdEnabled: z.boolean(),
    openIdForce: z.boolean(),
    attributes: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Server' });
export type ServerInfo = z.infer<typeof ServerInfo>;

/** What PUT /server changes (Traccar's Server; id, version and the OpenID flags are the server's own and ignored). */
export const ServerUpdate = z
  .object({
    registration: z.boolean().default(false),
    readonly: z.boolean().default(false),
    map: z.string().max(2048).nullable().default(null).describe('map layer or style URL the console uses'),
    latitude: z.number().min(-90).max(90),
    longitude: z.number().min(-180).max(180),
    zoom: z.number().int().min(0).max(24),
    ...traccarServerFields,
    attributes: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ id: 'ServerUpdate' });
export type ServerUpdate = z.infer<typeof ServerUpdate>;

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
  defineEndpoint({
    id: 'server.update', method: 'put', path: '/server', service: 'gateway', tags: ['system'],
    summary: 'Change the server settings (map, default position and zoom, registration, readonly, attributes)', access: ['admin'],
    request: { body: ServerUpdate },
    responses: { 200: { description: 'The server as stored', schema: ServerInfo } },
  }),
  defineEndpoint({
    id: 'server.timezones', method: 'get', path: '/server/timezones', service: 'gateway', tags: ['system'],
    summary: 'The IANA time zone names the server knows (for user and report time zones)', access: 'authenticated',
    responses: { 200: { description: 'Time zone names', schema: z.array(z.string()) } },
  }),
  defineEndpoint({
    id: 'health.get', method: 'get', path: '/health', service: 'gateway', tags: ['system'],
    summary: "Traccar's uptime check: OK (text) while the gateway reaches its database; 503 when it does not", access: 'public',
    responses: { 200: { description: 'OK', schema: z.string(), contentType: 'text/plain' } },
  }),
] as const;
