import { PositionMessage, positionId, type PositionMessageInput } from '@corridor/contracts';
import type { TestAdapters } from '@corridor/platform/testing/test-adapters';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { build, type GeofenceService } from '../src/app';
import { EARTH_RADIUS_M } from '../src/fences/geometry';
import type { LonLat } from '../src/fences/fence';

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
