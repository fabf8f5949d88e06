import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { notRef } from './references';
import { MAX_ID } from './common';

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

/** Traccar's POST /share/{device,group}: refused, as a Traccar server with sharing disabled answers. */
function shareEndpoint<K extends 'device' | 'group'>(kind: K) {
  return defineEndpoint({
    id: `share.${kind}`, method: 'post', path: `/share/${kind}`, service: 'gateway', tags: ['system'],
    summary: `Traccar's share link for a ${kind}: refused (403), as a Traccar server with sharing disabled answers`,
    description: 'Corridor issues no anonymous location links: every reader signs in. 403 FORBIDDEN for every caller (Traccar\'s answer when web.shareDevice is off).',
    access: 'authenticated',
    request: { body: z.object({ [`${kind}Id`]: notRef(z.coerce.number().int().positive().max(MAX_ID), 'refused before it is read: nothing is shared'), expiration: z.iso.datetime({ offset: true }) }) },
    responses: { 200: { description: 'Never answered', schema: z.string(), contentType: 'text/plain' } },
  });
}

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
  defineEndpoint({
    id: 'server.gc', method: 'get', path: '/server/gc', service: 'gateway', tags: ['system'],
    summary: "Traccar's garbage collection trigger (administrators)",
    description: 'Asks V8 for a full collection in the gateway when it runs with --expose-gc; otherwise nothing happens. Answers 200 with no body either way (as Traccar).',
    access: ['admin'],
    responses: { 200: { description: 'Done', schema: null } },
  }),
  defineEndpoint({
    id: 'server.cache', method: 'get', path: '/server/cache', service: 'gateway', tags: ['system'],
    summary: "Traccar's cache diagnostics (administrators): the gateway's memory and its shared cache, as text",
    access: ['admin'],
    responses: { 200: { description: 'One "name: value" line each', schema: z.string(), contentType: 'text/plain' } },
  }),
  defineEndpoint({
    id: 'server.reboot', method: 'post', path: '/server/reboot', service: 'gateway', tags: ['system'],
    summary: "Traccar's server reboot: refused (400); Corridor's services are restarted by their orchestrator",
    description: 'Always 400 BAD_REQUEST for administrators (others 403): restarting is the orchestrator\'s (Kubernetes, compose), never the API\'s.',
    access: ['admin'],
    responses: { 204: { description: 'Never answered', schema: null } },
  }),
  shareEndpoint('device'),
  shareEndpoint('group'),
] as const;
