import { z } from 'zod';

/**
 * device-status.v1 (key = device id): what ingest knows of a device's connections, for the device
 * state ops-api keeps (status online / offline / unknown, lastUpdate). `connected` when a known
 * device is first identified on a connection (TCP), `seen` for its frames that store nothing
 * (heartbeats; at most once a minute per connection), `disconnected` when that connection closed.
 * Positions need no message here: positions.v1 itself says the device is online.
 */
export const DeviceSessionMessage = z
  .object({
    deviceId: z.number().int().positive(),
    uniqueId: z.string().min(1),
    type: z.enum(['connected', 'seen', 'disconnected']),
    /** Unique per connection across ingest instances (`<instance>:<n>`). */
    connectionId: z.string().min(1).max(128),
    protocol: z.string().min(1),
    time: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'DeviceSessionMessage' });
export type DeviceSessionMessage = z.infer<typeof DeviceSessionMessage>;
