import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { DeviceRegistryMessage } from './devices';
import { Event } from './events';
import { Position } from './positions';

/**
 * One frame of the live feed (/api/socket), in Traccar's shape: usually one key per frame. The
 * first frame is `{ positions: [latest of every device the user may see] }`; then positions,
 * device changes and events as they happen; `{}` is the keepalive (every 55 s). Clients merge by id.
 * `events` are Traccar's: those a notification rule with the web channel sends to this user, each
 * with its sentence in `attributes.message`. `allEvents` (only to a socket opened with
 * ?allEvents=true, as Corridor's console does) are every event of the devices the user may see, as
 * they happen, whether or not a rule sends them.
 */
export const SocketMessage = z
  .object({
    positions: z.array(Position).optional().describe("Traccar's Position"),
    devices: z.array(DeviceRegistryMessage).optional().describe('Device registry changes; deleted=true means the device is gone'),
    events: z.array(Event).optional().describe('events a notification rule sends this user (web channel), with attributes.message'),
    allEvents: z.array(Event).optional().describe('with ?allEvents=true: every event of the devices the user may see'),
  })
  .meta({ id: 'SocketMessage' });
export type SocketMessage = z.infer<typeof SocketMessage>;

export const SocketQuery = z.object({
  token: z.string().min(1).max(512).optional().describe('A bearer token, for clients that cannot send headers'),
  allEvents: z
    .stringbool()
    .optional()
    .describe("true: also every event of the devices the caller may see, in `allEvents` frames (Corridor's console)"),
});

/** notifications.web.v1 (keyed by user id): an event a notification rule sends to the user's live feed. */
export const WebNotificationMessage = z
  .object({
    userId: z.number().int().positive(),
    ruleId: z.number().int().positive(),
    event: Event.describe("with attributes.message, the sentence in the user's language"),
  })
  .meta({ id: 'WebNotificationMessage' });
export type WebNotificationMessage = z.infer<typeof WebNotificationMessage>;

export const socketEndpoints = [
  defineEndpoint({
    id: 'socket.open',
    method: 'get',
    path: '/socket',
    service: 'gateway',
    tags: ['live'],
    summary: 'Live feed (WebSocket): positions, device changes and events for the devices the caller may see',
    description:
      "Upgrade to a WebSocket with the session cookie or ?token=<bearer token>. Company users see their company's " +
      'devices (and devices linked to them through /permissions); staff see every device. Frames are SocketMessage ' +
      'JSON. A plain GET without the upgrade answers 400.',
    access: 'authenticated',
    request: { query: SocketQuery },
    responses: { 101: { description: 'Switching protocols; SocketMessage frames follow', schema: null } },
  }),
] as const;
