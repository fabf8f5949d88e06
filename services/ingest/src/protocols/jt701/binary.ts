import { bcdString, isDigits } from '../bcd';
import { readJointechLocation } from '../jointech-location';
import { DecodeError, type DecodeResult } from '../protocol';
import { Alarms, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import { isLongFormat } from './frame';
import { readSealStatus, type SealSession } from './seal';
import { decodeJt600Short } from './short';

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
 * The short format of the JT600 vehicle trackers: short.ts.
 */
export function decodeJt701Binary(frame: Buffer, session: SealSession & { deviceId?: string }): DecodeResult {
  if (frame.length < 10) throw new DecodeError('truncated', 'jt701: binary frame shorter than its header');
  const idDigits = bcdString(frame, 1, 6);
  if (!isDigits(idDigits)) throw new DecodeError('bad_id', `jt701: device id is not BCD (${idDigits})`);
  const deviceId = idDigits.replace(/^0+(?=\d)/, '');
  session.deviceId = deviceId;
  if (!isLongFormat(frame)) return decodeJt600Short(frame, deviceId);
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

  const fix = readJointechLocation(frame, 10, 'byte');
  if (!fix) return stateResult(attributes, alarms, options);
  // a cell (LBS) location, status bit 0, is not a fix
  const position = positionOf(
    { ...fix, valid: fix.valid && (status & 1) === 0, satellites: frame.readUInt8(31) },
    attributes,
    alarms,
    deviceId,
  );
  return positionsResult([position], options);
}
