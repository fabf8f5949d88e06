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
    id: `share.${kind}`,
    method: 'post',
    path: `/share/${kind}`,
    service: 'gateway',
    tags: ['system'],
    summary: `Traccar's share link for a ${kind}: refused (403), as a Traccar server with sharing disabled answers`,
    description:
      "Corridor issues no anonymous location links: every reader signs in. 403 FORBIDDEN for every caller (Traccar's answer when web.shareDevice is off).",
    access: 'authenticated',
    request: {
      body: z.object({
        [`${kind}Id`]: notRef(z.coerce.number().int().positive().max(MAX_ID), 'refused before it is read: nothing is shared'),
        expiration: z.iso.datetime({ offset: true }),
      }),
    },
    responses: { 200: { description: 'Never answered', schema: z.string(), contentType: 'text/plain' } },
  });
}

/** Traccar's camera stream paths: no device here streams video, so each answers 404. */
function streamEndpoint(file: 'live.m3u8' | '{index}.ts') {
  const playlist = file === 'live.m3u8';
  return defineEndpoint({
    id: playlist ? 'stream.playlist' : 'stream.segment',
    method: 'get',
    path: `/stream/{deviceId}/{channel}/${file}`,
    service: 'gateway',
    tags: ['system'],
    summary: `Traccar's camera stream (${playlist ? 'HLS playlist' : 'HLS segment'}): 404, no device here streams video`,
    description:
      "Corridor's trackers report no camera channels (no JT/T 1078 video): every stream answers 404 NOT_FOUND, as a Traccar server does for a device without a camera.",
    access: 'authenticated',
    request: {
      params: z.object({
        deviceId: notRef(z.coerce.number().int().positive().max(MAX_ID), 'no stream exists for any device'),
        channel: notRef(z.coerce.number().int().min(0).max(64), 'a camera channel: none exists'),
        ...(playlist ? {} : { index: notRef(z.coerce.number().int().min(0).max(MAX_ID), 'a segment number: none exists') }),
      }),
    },
    responses: {
      200: { description: 'Never answered', schema: z.string(), contentType: playlist ? 'application/vnd.apple.mpegurl' : 'video/mp2t' },
    },
  });
}

export const systemEndpoints = [
  defineEndpoint({
    id: 'openapi.get',
    method: 'get',
    path: '/openapi.json',
    service: 'gateway',
    tags: ['system'],
    summary: 'This OpenAPI 3.1 document (generated from the zod contracts)',
    access: 'public',
    responses: { 200: { description: 'OpenAPI document', schema: z.record(z.string(), z.unknown()) } },
  }),
  defineEndpoint({
    id: 'server.get',
    method: 'get',
    path: '/server',
    service: 'gateway',
    tags: ['system'],
    summary: 'Server information (readable before login, as Traccar clients expect)',
    access: 'public',
    responses: { 200: { description: 'Server', schema: ServerInfo } },
  }),
  defineEndpoint({
    id: 'server.update',
    method: 'put',
    path: '/server',
    service: 'gateway',
    tags: ['system'],
    summary: 'Change the server settings (map, default position and zoom, registration, readonly, attributes)',
    access: ['admin'],
    request: { body: ServerUpdate },
    responses: { 200: { description: 'The server as stored', schema: ServerInfo } },
  }),
  defineEndpoint({
    id: 'server.timezones',
    method: 'get',
    path: '/server/timezones',
    service: 'gateway',
    tags: ['system'],
    summary: 'The IANA time zone names the server knows (for user and report time zones)',
    access: 'authenticated',
    responses: { 200: { description: 'Time zone names', schema: z.array(z.string()) } },
  }),
  defineEndpoint({
    id: 'health.get',
    method: 'get',
    path: '/health',
    service: 'gateway',
    tags: ['system'],
    summary: "Traccar's uptime check: OK (text) while the gateway reaches its database; 503 when it does not",
    access: 'public',
    responses: { 200: { description: 'OK', schema: z.string(), contentType: 'text/plain' } },
  }),
  defineEndpoint({
    id: 'server.gc',
    method: 'get',
    path: '/server/gc',
    service: 'gateway',
    tags: ['system'],
    summary: "Traccar's garbage collection trigger (administrators)",
    description:
      'Asks V8 for a full collection in the gateway when it runs with --expose-gc; otherwise nothing happens. Answers 200 with no body either way (as Traccar).',
    access: ['admin'],
    responses: { 200: { description: 'Done', schema: null } },
  }),
  defineEndpoint({
    id: 'server.cache',
    method: 'get',
    path: '/server/cache',
    service: 'gateway',
    tags: ['system'],
    summary: "Traccar's cache diagnostics (administrators): the gateway's memory and its shared cache, as text",
    access: ['admin'],
    responses: { 200: { description: 'One "name: value" line each', schema: z.string(), contentType: 'text/plain' } },
  }),
  defineEndpoint({
    id: 'server.reboot',
    method: 'post',
    path: '/server/reboot',
    service: 'gateway',
    tags: ['system'],
    summary: "Traccar's server reboot: refused (400); Corridor's services are restarted by their orchestrator",
    description:
      "Always 400 BAD_REQUEST for administrators (others 403): restarting is the orchestrator's (Kubernetes, compose), never the API's.",
    access: ['admin'],
    responses: { 204: { description: 'Never answered', schema: null } },
  }),
  shareEndpoint('device'),
  shareEndpoint('group'),
  defineEndpoint({
    id: 'server.file',
    method: 'post',
    path: '/server/file/{path}',
    service: 'gateway',
    tags: ['system'],
    summary: "Traccar's upload into the web override folder: refused (400), Corridor serves no override folder",
    description:
      'Always 400 NOT_SUPPORTED for administrators (others 403), as a Traccar server without web.override: the console is built and deployed with its assets; the body is not read.',
    access: ['admin'],
    request: {
      params: z.object({ path: notRef(z.string().min(1).max(1024), 'a file name, refused before it is read') }),
      bodyContentType: 'application/octet-stream',
    },
    responses: { 200: { description: 'Never answered', schema: null } },
  }),
  streamEndpoint('live.m3u8'),
  streamEndpoint('{index}.ts'),
] as const;
