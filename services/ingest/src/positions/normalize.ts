import { PositionMessage, positionId, positionTime } from '@corridor/contracts';
import type { DecodedPosition } from '../protocols/protocol';

export interface KnownDevice {
  id: number;
  uniqueId: string;
}

/**
 * A sane decoded fix of a known device → the positions.v1 message. The fix time is stored at
 * one-second resolution and the id derived from device and fix second (position-id.ts).
 */
export function toPositionMessage(
  p: DecodedPosition,
  device: KnownDevice,
  meta: { protocol: string; serverTime: Date; crcValid: boolean; rawFrameId?: string | null },
): PositionMessage {
  const fixTime = positionTime(p.fixTime).toISOString();
  return {
    id: positionId(device.id, p.fixTime),
    deviceId: device.id,
    uniqueId: device.uniqueId,
    protocol: meta.protocol,
    fixTime,
    deviceTime: fixTime,
    serverTime: meta.serverTime.toISOString(),
    valid: p.valid,
    latitude: p.latitude,
    longitude: p.longitude,
    speed: p.speed,
    course: p.course === 360 ? 0 : p.course,
    altitude: p.altitude ?? null,
    accuracy: typeof p.attributes.accuracy === 'number' ? p.attributes.accuracy : null,
    satellites: p.satellites ?? null,
    hdop: p.hdop ?? null,
    ignition: p.ignition ?? null,
    odometer: p.odometer ?? null,
    power: p.power ?? null,
    battery: p.battery ?? null,
    alarm: p.alarm ?? null,
    crcValid: meta.crcValid,
    rawFrameId: meta.rawFrameId ?? null,
    attributes: p.attributes,
  } satisfies PositionMessage;
}

export { PositionMessage };
