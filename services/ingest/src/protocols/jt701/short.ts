import { readJointechLocation, JOINTECH_LOCATION_LENGTH } from '../jointech-location';
import type { DecodedPosition, DecodeResult } from '../protocol';
import { Alarms, positionOf, positionsResult, stateResult, type Attributes } from '../result';

/**
 * The short binary format of the JT600 vehicle trackers (the layout Traccar's Jt600ProtocolDecoder
 * reads): `$`, id BCD[5], a byte whose high nibble is the version, length WORD, then records of a
 * 17-byte location (jointech-location.ts, speed BCD) and 10 bytes by version, and a serial BYTE:
 * - version 1: satellites BYTE, power BYTE (`powerLevel`: Traccar's power, its unit not published),
 *   flags BYTE, altitude WORD, cell id WORD, LAC WORD, signal BYTE;
 * - version 2: fuel high BYTE, status DWORD (byte 0: bit 0 ignition, bit 6 door; byte 1: bit 0
 *   charging, bit 1 blocked, bit 2 sos, bits 3/4 GPS antenna cut, bit 4 overspeed; byte 2: bit 2
 *   fatigue, bit 3 tow), mileage DWORD (km), fuel low BYTE;
 * - version 3, bit-packed: fuel 1, 2, 3 (12 bits each), mileage (20 bits, km), status (24 bits:
 *   bit 0 ignition).
 * No answer is sent (the trackers expect none).
 */
const EXTRA = 10;

function version1(b: Buffer, at: number, a: Attributes): void {
  a.sat = b.readUInt8(at);
  a.powerLevel = b.readUInt8(at + 1);
  a.altitude = b.readUInt16BE(at + 3);
  const cid = b.readUInt16BE(at + 5);
  const lac = b.readUInt16BE(at + 7);
  a.rssi = b.readUInt8(at + 9);
  if (cid && lac) Object.assign(a, { cid, lac });
}

function version2(b: Buffer, at: number, a: Attributes, alarms: Alarms): void {
  const [s0, s1, s2] = [b[at + 1]!, b[at + 2]!, b[at + 3]!];
  a.ignition = (s0 & 0x01) !== 0;
  a.door = (s0 & 0x40) !== 0;
  a.charge = (s1 & 0x01) !== 0;
  a.blocked = (s1 & 0x02) !== 0;
  if (s1 & 0x04) alarms.add('sos');
  if (s1 & 0x18) alarms.add('gpsAntennaCut');
  if (s1 & 0x10) alarms.add('overspeed');
  if (s2 & 0x04) alarms.add('fatigueDriving');
  if (s2 & 0x08) alarms.add('tow');
  a.odometer = b.readUInt32BE(at + 5) * 1000;
  a.fuel = (b.readUInt8(at) << 8) + b.readUInt8(at + 9);
}

function version3(b: Buffer, at: number, a: Attributes): void {
  const bits = BigInt(`0x${b.toString('hex', at, at + EXTRA)}`);
  const take = (from: number, width: number) => Number((bits >> BigInt(80 - from - width)) & ((1n << BigInt(width)) - 1n));
  Object.assign(a, { fuel1: take(0, 12), fuel2: take(12, 12), fuel3: take(24, 12), odometer: take(36, 20) * 1000 });
  const status = take(56, 24);
  a.ignition = (status & 1) === 1;
  a.status = status;
}

export function decodeJt600Short(frame: Buffer, deviceId: string): DecodeResult {
  const version = frame.readUInt8(6) >> 4;
  const o = { type: `short-${version}`, crcValid: true, deviceId };
  const end = frame.length - 1; // the serial
  const positions: DecodedPosition[] = [];
  let last: { attributes: Attributes; alarms: Alarms } | null = null;
  for (let at = 9; at + JOINTECH_LOCATION_LENGTH + EXTRA <= end; at += JOINTECH_LOCATION_LENGTH + EXTRA) {
    const attributes: Attributes = { index: frame.readUInt8(end) };
    const alarms = new Alarms();
    const x = at + JOINTECH_LOCATION_LENGTH;
    if (version === 1) version1(frame, x, attributes);
    else if (version === 2) version2(frame, x, attributes, alarms);
    else if (version === 3) version3(frame, x, attributes);
    const fix = readJointechLocation(frame, at, 'bcd');
    if (fix) positions.push(positionOf(fix, attributes, alarms, deviceId));
    else last = { attributes, alarms };
  }
  if (positions.length) return positionsResult(positions, o);
  if (last) return stateResult(last.attributes, last.alarms, o);
  return stateResult({}, new Alarms(), o);
}
