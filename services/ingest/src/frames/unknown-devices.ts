import { Topics, type DeviceRegistrationRequest } from '@corridor/contracts';
import { counter, type Bus, type Cache, type Clock, type Logger } from '@corridor/platform';
import { unknownDevices } from '../devices/device-registry';

export type UnknownDevicesMode = 'reject' | 'pending';

const registrationRequests = counter('ingest_registration_requests_total', 'Registration requests published for unknown devices', [
  'protocol',
]);
/** One request per unique id and hour is enough: ops-api keeps the latest (the topic is compacted). */
const REQUEST_EVERY_S = 3600;
const requestKey = (uniqueId: string): string => `ingest:pending-request:${uniqueId}`;

/**
 * UNKNOWN_DEVICES: frames from a unique id the registry does not know are never acknowledged and
 * are counted. In `pending` mode ingest also asks for the device to be registered, on
 * devices.pending.v1 (ops-api lists those requests for an administrator to accept).
 */
export class UnknownDevicePolicy {
  constructor(private readonly deps: { mode: UnknownDevicesMode; bus: Bus; cache: Cache; clock: Clock; logger: Logger }) {}

  get mode(): UnknownDevicesMode {
    return this.deps.mode;
  }

  /** Counts the refusal (unless `alreadyCounted`) and, in pending mode, requests the registration. */
  async refuse(uniqueId: string, protocol: string, remote: string | null, alreadyCounted = false): Promise<void> {
    if (!alreadyCounted) unknownDevices.inc({ protocol });
    if (this.deps.mode !== 'pending') return;
    const key = requestKey(uniqueId);
    try {
      if (!(await this.deps.cache.setIfAbsent(key, '1', REQUEST_EVERY_S))) return;
    } catch (err) {
      this.deps.logger.warn({ err, uniqueId }, 'cache unavailable: registration request not deduplicated');
    }
    const request: DeviceRegistrationRequest = { uniqueId, protocol, remoteAddress: remote, seenAt: this.deps.clock.now().toISOString() };
    try {
      await this.deps.bus.publish(Topics.devicesPending, [{ key: uniqueId, value: request }]);
      registrationRequests.inc({ protocol });
      this.deps.logger.info({ uniqueId, protocol, remote }, 'unknown device: registration requested');
    } catch (err) {
      // let the next frame of the device try again
      await this.deps.cache.del(key).catch(() => undefined);
      this.deps.logger.warn({ err, uniqueId }, 'registration request not published');
    }
  }
}
