import { z } from 'zod';

/**
 * commands.v1 (key = device id): a downlink command for one device, as Traccar's Command
 * (type + attributes). Ingest consumes it, writes the protocol's encoding to the device's open
 * connection (or keeps it queued until the device's next login) and then publishes a
 * 'queuedCommandSent' event on events.v1.
 */
export const CommandMessage = z.object({
  id: z.string().min(1).max(128).describe('Stable command id; redelivery of the same id is sent once'),
  deviceId: z.number().int().positive(),
  uniqueId: z.string().min(1).describe('Device unique id (IMEI) the protocol connection is known by'),
  type: z.string().min(1).max(64).describe("Traccar command type: 'engineStop', 'engineResume', 'custom', ..."),
  attributes: z.record(z.string(), z.unknown()).default({}),
  requestedAt: z.iso.datetime({ offset: true }),
});
export type CommandMessage = z.infer<typeof CommandMessage>;
export type CommandMessageInput = z.input<typeof CommandMessage>;
