import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { DeviceRegistryMessage } from './devices';
import { EventMessage } from './events';
import { PositionMessage } from './positions';

/**
 * One frame of the live feed (/api/socket), in Traccar's shape: usually one key per frame. The
 * first frame is `{ positions: [latest of every device the user may see] }`; then positions,
 * device changes and events as they happen; `{}` is the keepalive (every 55 s). Clients merge by id.
 */
export const SocketMessage = z
  .object({
    positions: z.array(PositionMessage).optional(),
    devices: z.array(DeviceRegistryMessage).optional().describe('Device registry changes; deleted=true means the device is gone'),
    events: z.array(EventMessage).optional(),
  })
  .meta({ id: 'SocketMessage' });
export type SocketMessage = z.infer<typeof SocketMessage>;

export const SocketQuery = z.object({
  token: z.string().min(1).max(512).optional().describe('A bearer token, for clients that cannot send headers'),
});

export const socketEndpoints = [
  defineEndpoint({
    id: 'socket.open', method: 'get', path: '/socket', service: 'gateway', tags: ['live'],
    summary: 'Live feed (WebSocket): positions, device changes and events for the devices the caller may see',
    description:
      'Upgrade to a WebSocket with the session cookie or ?token=<bearer token>. Company users see their company\'s ' +
      'devices (and devices linked to them through /permissions); staff see every device. Frames are SocketMessage ' +
      'JSON. A plain GET without the upgrade answers 400.',
    access: 'authenticated',
    request: { query: SocketQuery },
    responses: { 101: { description: 'Switching protocols; SocketMessage frames follow', schema: null } },
  }),
] as const;
