import { PositionMessage, positionId, type PositionMessageInput } from '@corridor/contracts';
import type { TestAdapters } from '@corridor/platform/testing/test-adapters';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { build, type GeofenceService } from '../src/app';
import { EARTH_RADIUS_M } from '../src/fences/geometry';
import type { LonLat } from '../src/fences/fence';
import { eventually } from '@corridor/platform/testing/eventually';

/** Builds and starts the service on the given adapters, as main.ts does. */
export async function startService(adapters: TestAdapters): Promise<GeofenceService> {
  const svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
  await svc.start();
  return svc;
}

/** The point `meters` due north (negative: south) of `from`, exact on the evaluator's sphere. */
export function northOf(from: LonLat, meters: number): LonLat {
  return [from[0], from[1] + (meters / EARTH_RADIUS_M) * (180 / Math.PI)];
}

/** A positions.v1 message of `deviceId` at `time`. */
export function positionAt(deviceId: number, time: Date, [lon, lat]: LonLat, extra: Partial<PositionMessageInput> = {}): PositionMessage {
  return PositionMessage.parse({
    id: positionId(deviceId, time),
    deviceId,
    uniqueId: `imei-${deviceId}`,
    protocol: 'osmand',
    fixTime: time.toISOString(),
    serverTime: new Date().toISOString(),
    valid: true,
    latitude: lat,
    longitude: lon,
    speed: 0,
    course: 0,
    ...extra,
  });
}

/** Far from every seeded fence and every fence the tests draw (Lake Turkana's west shore). */
const MARKER_CENTRE: LonLat = [35.6, 3.5];

/**
 * Proves that nothing more happens for a device without waiting for a while: a fence of its own
 * (drawn through the API, so it applies to every device at once, with no dwell) and, after the fixes
 * under test, one fix of the device inside it. The evaluator handles one device's fixes in order
 * (one key, one partition) and publishes their events in order, so once the marker's enter reached
 * the observer every event the earlier fixes caused has reached it too.
 */
export class MarkerFence {
  private constructor(readonly id: string) {}

  /** Draws the marker fence through `api` (a POST /api/geofences as an administrator, answering the fence). */
  static async draw(
    api: (body: { name: string; area: string; kind: 'checkpoint' }) => Promise<{ id: number }>,
    name: string,
  ): Promise<MarkerFence> {
    // a checkpoint of the association (shared, a place kind): it applies to every device, linked or not
    const fence = await api({ name, area: `CIRCLE (${MARKER_CENTRE[1]} ${MARKER_CENTRE[0]}, 500)`, kind: 'checkpoint' });
    return new MarkerFence(String(fence.id));
  }

  /**
   * Publishes the marker fix of `deviceId` at `time` (after its fixes under test) and waits until its
   * enter arrived; answers the device's events before the marker (the events of the marker fix itself,
   * an exit of a fence the device was in, excluded).
   */
  async eventsBefore<E extends { geofenceId: string | null; positionId: number | null }>(
    deviceId: number,
    time: Date,
    io: { publish: (positions: PositionMessage[]) => Promise<unknown>; eventsOf: (deviceId: number) => E[] },
  ): Promise<E[]> {
    const marker = positionAt(deviceId, time, MARKER_CENTRE);
    await io.publish([marker]);
    return eventually(`the marker enter of device ${deviceId}`, () => {
      const all = io.eventsOf(deviceId);
      const at = all.findIndex((e) => e.geofenceId === this.id && e.positionId === marker.id);
      return at < 0 ? undefined : all.slice(0, at).filter((e) => e.positionId !== marker.id);
    });
  }
}
