import type { EventMessage } from '@corridor/contracts';
import { counter, type Cache, type Clock, type Logger } from '@corridor/platform';

/** Why a frame's claim on a device was refused, or what was seen (a second connection). */
export type IdentityConflict =
  /** the device is bound to another protocol (the one it first spoke, or its administrator's) */
  | 'protocol'
  /** JT/T 808: a registration of a device that registered before (its code was issued) */
  | 'jt808_registered'
  /** JT/T 808: an authentication code that is not the one issued */
  | 'jt808_code'
  /** JT/T 808: data before the connection authenticated */
  | 'jt808_unauthenticated'
  /** two connections sent frames for the device after the later one opened */
  | 'duplicate_connection';

const identityConflicts = counter(
  'ingest_identity_conflicts_total',
  'Frames refused for claiming a device they cannot speak for, and devices seen on two connections at once',
  ['protocol', 'reason'],
);

/** One event per device and reason in this window (across instances, through the cache): a forger's flood is one event, counted in full. */
const EVENT_EVERY_S = 600;
const eventKey = (deviceId: number, reason: IdentityConflict): string => `ingest:identity-event:${deviceId}:${reason}`;

/**
 * The `deviceIdentityConflict` event of a device: stored in ClickHouse's events (the events API and
 * report read it there), then published on events.v1 (the live feed shows it to the device's company
 * and the association; notification rules of that type fire). At most one per device and reason
 * every 10 minutes; every refusal is counted in ingest_identity_conflicts_total and logged.
 */
export class IdentityEvents {
  /** `record`: stores and publishes events (events/store-and-publish.ts). */
  constructor(private readonly deps: { record: (events: EventMessage[]) => Promise<void>; cache: Cache; clock: Clock; logger: Logger }) {}

  async raise(
    device: { id: number; uniqueId: string },
    reason: IdentityConflict,
    details: { protocol: string; remote: string | null; [k: string]: string | number | null },
  ): Promise<void> {
    identityConflicts.inc({ protocol: details.protocol, reason });
    this.deps.logger.warn({ deviceId: device.id, uniqueId: device.uniqueId, reason, ...details }, 'device identity conflict');
    try {
      if (!(await this.deps.cache.setIfAbsent(eventKey(device.id, reason), '1', EVENT_EVERY_S))) return;
      const now = this.deps.clock.now();
      const event: EventMessage = {
        id: `${device.id}-deviceIdentityConflict-${reason}-${now.getTime()}`,
        type: 'deviceIdentityConflict',
        eventTime: now.toISOString(),
        deviceId: device.id,
        positionId: null,
        journeyId: null,
        geofenceId: null,
        latitude: null,
        longitude: null,
        attributes: { reason, uniqueId: device.uniqueId, ...details },
      };
      await this.deps.record([event]);
    } catch (err) {
      // the refusal stands either way; the event is what could not be recorded
      this.deps.logger.error({ err, deviceId: device.id, reason }, 'device identity event not recorded');
    }
  }
}
