import { DecodeError, type DecodedPosition } from '../protocol';
import { H02_BINARY_SHORT } from './frame';
import { decodeBatteryLevel, decodeStatus } from './status';
import { MAX_SPEED_KNOTS, utcFromParts } from '../text-time';

/**
 * Binary H02 report (facts from the H02 document and Traccar's H02ProtocolDecoder):
 * `$` id(5 BCD, or 8 when the frame is 42 bytes) hh mm ss dd mm yy (BCD) lat(4 BCD: ddmm.mmmm)
 * battery(1) lon(9 BCD digits dddmm.mmmm + flags nibble) speed(3 BCD digits, knots) + course
 * (1 BCD nibble of hundreds + 2 BCD digits) status(uint32 BE), then optional firmware data.
 * Flags: 0x2 = fix valid, 0x4 = north, 0x8 = east.
 */
const LONG_ID_LENGTH = 42;

/** Reads BCD digits from a byte-aligned start; one nibble per digit, high nibble first. */
function bcdDigits(frame: Buffer, start: number, digits: number): number {
  let value = 0;
  for (let i = 0; i < digits; i++) {
    const byte = frame[start + (i >> 1)] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    if (nibble > 9) throw new DecodeError('malformed', `h02: non-BCD nibble at byte ${start + (i >> 1)}`);
    value = value * 10 + nibble;
  }
  return value;
}

export interface H02BinaryReport {
  deviceId: string;
  position: DecodedPosition | null;
}

export function decodeBinary(frame: Buffer): H02BinaryReport {
  if (frame.length < H02_BINARY_SHORT) throw new DecodeError('malformed', `h02: binary frame of ${frame.length} bytes`);
  const idBytes = frame.length === LONG_ID_LENGTH ? 8 : 5;
  const hex = frame.subarray(1, 1 + idBytes).toString('hex');
  const deviceId = idBytes === 8 ? hex.slice(0, 15) : hex;
  let at = 1 + idBytes;
  const [hh, mi, ss, dd, mo, yy] = Array.from({ length: 6 }, (_, i) => bcdDigits(frame, at + i, 2)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  at += 6;
  const latDeg = bcdDigits(frame, at, 2);
  const latMin = bcdDigits(frame, at + 1, 6) / 10000;
  const batteryByte = frame[at + 4] ?? 0;
  at += 5;
  const lonDeg = bcdDigits(frame, at, 3);
  const lonMin = (bcdDigits(frame, at + 1, 7) % 1000000) / 10000;
  const flags = (frame[at + 4] ?? 0) & 0x0f;
  at += 5;
  const speed = bcdDigits(frame, at, 3);
  const course = ((frame[at + 1] ?? 0) & 0x0f) * 100 + bcdDigits(frame, at + 2, 2);
  at += 3;
  const status = frame.readUInt32BE(at);

  const fixTime = utcFromParts(yy, mo, dd, hh, mi, ss);
  if (fixTime === null || latMin >= 60 || lonMin >= 60 || speed > MAX_SPEED_KNOTS) {
    return { deviceId, position: null };
  }
  let latitude = latDeg + latMin / 60;
  let longitude = lonDeg + lonMin / 60;
  if ((flags & 0x04) === 0) latitude = -latitude;
  if ((flags & 0x08) === 0) longitude = -longitude;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || course > 360) return { deviceId, position: null };

  const decoded = decodeStatus(status);
  const batteryLevel = decodeBatteryLevel(batteryByte);
  return {
    deviceId,
    position: {
      deviceId,
      fixTime,
      valid: (flags & 0x02) !== 0,
      latitude,
      longitude,
      speed,
      course,
      ignition: decoded.ignition,
      alarm: decoded.alarm,
      // The battery byte is a level (%), not a voltage: Traccar's batteryLevel.
      attributes: batteryLevel === null ? { status } : { status, batteryLevel },
    },
  };
}
