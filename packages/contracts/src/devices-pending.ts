import { z } from 'zod';

/**
 * devices.pending.v1 (compacted, key = unique id): ingest saw a device that is not in the registry
 * and UNKNOWN_DEVICES=pending, so it asks for the device to be registered. An administrator accepts
 * it through ops-api, which then publishes the device on devices.v1 as usual.
 */
export const DeviceRegistrationRequest = z.object({
  uniqueId: z.string().min(1).max(64),
  protocol: z.string().min(1),
  remoteAddress: z.string().nullable().default(null),
  /** When this ingest instance first saw the device since its last request (ISO 8601 UTC). */
  seenAt: z.iso.datetime({ offset: true }),
});
export type DeviceRegistrationRequest = z.infer<typeof DeviceRegistrationRequest>;
