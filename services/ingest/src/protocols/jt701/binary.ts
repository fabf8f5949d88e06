import { bcdDateTime, bcdString, isDigits } from '../bcd';
import { DecodeError, type DecodeResult } from '../protocol';
import { Alarms, ignoredResult, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import { isLongFormat } from './frame';
import { readSealStatus, type SealSession } from './seal';

/**
 * Binary location reports of the JT701/JT709 seals (long format; layout from Jointech's JT701
 * protocol and its published parser, protocol versions 0x17 and 0x19): `$`, id BCD[5], protocol
 * version, device/data type, length WORD, date DDMMYY and time hhmmss (BCD, UTC), latitude BCD
 * DDMM.mmmm, longitude BCD DDDMM.mmmm with a flag nibble (bit 0 fix, bit 1 north, bit 2 east), speed
 * BYTE (knots), direction BYTE (×2 degrees), mileage DWORD (km), satellites BYTE, vehicle id DWORD,
 * device status WORD (seal.ts), battery BYTE (% or 0xFF charging), cell id WORD, LAC WORD, GSM signal
 * BYTE; version 0x19 adds area id, status 3, reserved, IMEI BCD[8], 3G cell id high WORD, MCC WORD,
 * MNC BYTE; the last byte is the serial number. The reply is `(P69,0,<serial>)` from version 0x19 on,
 * else `(P35)` for alarm data only.
 * The short format of the JT600 vehicle trackers is refused with its reason.
 */
const KNOTS = 1; // the seal reports knots

function coordinate(digits: string, degreeDigits: number): number {
  return Number(digits.slice(0, degreeDigits)) + Number(`${digits.slice(degreeDigits, degreeDigits + 2)}.${digits.slice(degreeDigits + 2)}`) / 60;
}

export function decodeJt701Binary(frame: Buffer, session: SealSession & { deviceId?: string }): DecodeResult {
  if (frame.length < 10) throw new DecodeError('truncated', 'jt701: binary frame shorter than its header');
  const idDigits = bcdString(frame, 1, 6);
  if (!isDigits(idDigits)) throw new DecodeError('bad_id', `jt701: device id is not BCD (${idDigits})`);
  const deviceId = idDigits.replace(/^0+(?=\d)/, '');
  session.deviceId = deviceId;
  if (!isLongFormat(frame[1]!)) return ignoredResult('short-format report of a JT600 vehicle tracker (not a seal)', { type: 'binary-short', crcValid: true, deviceId });
  const version = frame.readUInt8(6);
  const o = { type: `binary-${version.toString(16)}`, crcValid: true, deviceId };
  if (frame.length < 44) throw new DecodeError('truncated', `jt701: long report of ${frame.length} bytes`);
  const serial = frame.readUInt8(frame.length - 1);
  const attributes: Attributes = { index: serial };
  const alarms = new Alarms();
  const status = frame.readUInt16BE(36);
  readSealStatus(status, attributes, alarms, session);
  const battery = frame.readUInt8(38);
  if (battery === 0xff) attributes.charge = true;
  else attributes.batteryLevel = battery;
  attributes.odometer = frame.readUInt32BE(27) * 1000;
  attributes.rssi = frame.readUInt8(43);
  attributes.lac = frame.readUInt16BE(41);
  attributes.cid = frame.readUInt16BE(39);
  if (version >= 0x19 && frame.length >= 62) {
    attributes.cid = (frame.readUInt16BE(56) << 16) + frame.readUInt16BE(39);
    attributes.mcc = frame.readUInt16BE(58);
    attributes.mnc = frame.readUInt8(60);
  }
  const ack = version >= 0x19 ? Buffer.from(`(P69,0,${serial})`) : ((status >> 5) & 1) === 1 ? Buffer.from('(P35)') : undefined;
  const options = { ...o, ack };

  const fixTime = bcdDateTime(frame, 10, 'dmy');
  const lat = bcdString(frame, 16, 20);
  const lonAndFlags = bcdString(frame, 20, 25);
  const flags = parseInt(lonAndFlags.slice(9), 16);
  if (!fixTime || !isDigits(lat) || !isDigits(lonAndFlags.slice(0, 9))) return stateResult(attributes, alarms, options);
  let latitude = coordinate(lat, 2);
  let longitude = coordinate(lonAndFlags.slice(0, 9), 3);
  if ((flags & 0x2) === 0) latitude = -latitude;
  if ((flags & 0x4) === 0) longitude = -longitude;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return stateResult(attributes, alarms, options);
  const position = positionOf(
    {
      fixTime,
      valid: (flags & 0x1) === 1 && ((status >> 0) & 1) === 0, // a cell (LBS) location is not a fix
      latitude,
      longitude,
      speed: frame.readUInt8(25) * KNOTS,
      course: frame.readUInt8(26) * 2,
      satellites: frame.readUInt8(31),
    },
    attributes,
    alarms,
    deviceId,
  );
  return positionsResult([position], options);
}
