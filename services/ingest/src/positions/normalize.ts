import { PositionMessage, positionId, positionTime } from '@corridor/contracts';
import type { DecodedPosition } from '../protocols/protocol';

export interface KnownDevice {
  id: number;
  uniqueId: string;
  /** The protocol the device is bound to (its administrator's, or the one it first spoke as ops-api stored it); null while unbound. */
  protocol?: string | null;
}

type Attributes = PositionMessage['attributes'];
type Value = Attributes[string];

const num = (v: Value | undefined): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/** An attribute value that may fill a column constrained to ≥ 0 (a negative one stays an attribute only). */
const nonNegative = (v: Value | undefined): number | null => {
  const n = num(v);
  return n !== null && n >= 0 ? n : null;
};
const bool = (v: Value | undefined): boolean | null => (typeof v === 'boolean' ? v : null);
const text = (v: Value | undefined): string | null => (typeof v === 'string' && v !== '' ? v : null);

/**
 * The fields positions.v1 carries both as columns and, for Traccar clients, as attributes under
 * Traccar's keys (Position.KEY_*), in Traccar's units: sat, hdop, ignition, odometer (m), power and
 * battery (V), alarm. A decoder may set either side; normalize makes both agree (the column wins).
 */
function mirrored(
  p: DecodedPosition,
): Pick<PositionMessage, 'satellites' | 'hdop' | 'ignition' | 'odometer' | 'power' | 'battery' | 'alarm'> {
  const a = p.attributes;
  const satellites = p.satellites ?? nonNegative(a.sat);
  return {
    satellites: satellites === null ? null : Math.max(0, Math.round(satellites)),
    hdop: p.hdop ?? nonNegative(a.hdop),
    ignition: p.ignition ?? bool(a.ignition),
    odometer: p.odometer ?? nonNegative(a.odometer),
    power: p.power ?? num(a.power),
    battery: p.battery ?? num(a.battery),
    alarm: p.alarm ?? text(a.alarm),
  };
}

function traccarAttributes(attributes: Attributes, m: ReturnType<typeof mirrored>, stateRecord: boolean): Attributes {
  // no closure per fix (under tsx each named one costs a defineProperty of its name, issue 28)
  const out: Attributes = { ...attributes };
  if (m.satellites !== null) out.sat = m.satellites;
  if (m.hdop !== null) out.hdop = m.hdop;
  if (m.ignition !== null) out.ignition = m.ignition;
  if (m.odometer !== null) out.odometer = m.odometer;
  if (m.power !== null) out.power = m.power;
  if (m.battery !== null) out.battery = m.battery;
  if (m.alarm !== null) out.alarm = m.alarm;
  if (stateRecord) out.outdated = true;
  return out;
}

/** The server time's ISO text, made once for the fixes of one intake call (they share the instant). */
let serverTimeMs = NaN;
let serverTimeIso = '';
function isoOf(d: Date): string {
  const ms = d.getTime();
  if (ms !== serverTimeMs) {
    serverTimeIso = d.toISOString();
    serverTimeMs = ms;
  }
  return serverTimeIso;
}

/**
 * A sane decoded fix (or state record) of a known device → the positions.v1 message. The fix time
 * is stored at one-second resolution and the id derived from device, fix second and kind
 * (position-id.ts). A state record is a status/heartbeat message placed at the last known location
 * (attributes.outdated = true, valid = false, as Traccar's getLastLocation).
 */
export function toPositionMessage(
  p: DecodedPosition,
  device: KnownDevice,
  meta: { protocol: string; serverTime: Date; crcValid: boolean; rawFrameId?: string | null; stateRecord?: boolean },
): PositionMessage {
  const stateRecord = meta.stateRecord === true;
  const fixTime = positionTime(p.fixTime).toISOString();
  const m = mirrored(p);
  return {
    id: positionId(device.id, p.fixTime, stateRecord ? 'state' : 'fix'),
    deviceId: device.id,
    uniqueId: device.uniqueId,
    protocol: meta.protocol,
    fixTime,
    deviceTime: fixTime,
    serverTime: isoOf(meta.serverTime),
    valid: stateRecord ? false : p.valid,
    latitude: p.latitude,
    longitude: p.longitude,
    speed: p.speed,
    course: p.course === 360 ? 0 : p.course,
    altitude: p.altitude ?? null,
    accuracy: typeof p.attributes.accuracy === 'number' ? p.attributes.accuracy : null,
    ...m,
    crcValid: meta.crcValid,
    rawFrameId: meta.rawFrameId ?? null,
    attributes: traccarAttributes(p.attributes, m, stateRecord),
  } satisfies PositionMessage;
}

export { PositionMessage };
