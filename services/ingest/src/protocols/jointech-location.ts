import { bcdDateTime, bcdString, isDigits } from './bcd';
import type { Fix } from './result';

/**
 * The 17-byte location block of Jointech's binary formats (JT600/JT701/JT709 reports, their WLNET
 * sensor frames, and the 0x5501/0x5502 locations they send on JT/T 808; Traccar's
 * Jt600ProtocolDecoder.decodeBinaryLocation reads the same block): date DDMMYY and time hhmmss (BCD,
 * UTC), latitude BCD DDMM.mmmm (8 digits), longitude BCD DDDMM.mmmm (9 digits) and a flag nibble
 * (bit 0 fix, bit 1 north, bit 2 east), speed (knots: BCD as Traccar reads it, or a binary byte as
 * the JT701 seal documents it), course BYTE (×2 degrees). Null when a field is not BCD or out of
 * range, or when the block holds no fix yet (0, 0 without the fix flag).
 */
export const JOINTECH_LOCATION_LENGTH = 17;

function coordinate(digits: string, degreeDigits: number): number {
  return (
    Number(digits.slice(0, degreeDigits)) + Number(`${digits.slice(degreeDigits, degreeDigits + 2)}.${digits.slice(degreeDigits + 2)}`) / 60
  );
}

export function readJointechLocation(buf: Buffer, at: number, speed: 'bcd' | 'byte'): (Fix & { flags: number }) | null {
  if (at + JOINTECH_LOCATION_LENGTH > buf.length) throw new RangeError(`location block at ${at} past the end of ${buf.length} bytes`);
  const fixTime = bcdDateTime(buf, at, 'dmy');
  const lat = bcdString(buf, at + 6, at + 10);
  const lonAndFlags = bcdString(buf, at + 10, at + 15);
  const flags = buf.readUInt8(at + 14) & 0x0f;
  const speedDigits = bcdString(buf, at + 15, at + 16);
  if (!fixTime || !isDigits(lat) || !isDigits(lonAndFlags.slice(0, 9)) || (speed === 'bcd' && !isDigits(speedDigits))) return null;
  const latitude = coordinate(lat, 2) * (flags & 0x2 ? 1 : -1);
  const longitude = coordinate(lonAndFlags.slice(0, 9), 3) * (flags & 0x4 ? 1 : -1);
  const course = buf.readUInt8(at + 16) * 2;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180 || course > 360) return null;
  // no fix yet: 0, 0 without the fix flag (the seals then send 01-01-00 as the date)
  if ((flags & 0x1) === 0 && latitude === 0 && longitude === 0) return null;
  return {
    fixTime,
    valid: (flags & 0x1) === 1,
    latitude,
    longitude,
    speed: speed === 'bcd' ? Number(speedDigits) : buf.readUInt8(at + 15),
    course,
    flags,
  };
}
