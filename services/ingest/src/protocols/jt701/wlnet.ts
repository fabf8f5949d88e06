import { readJointechLocation } from '../jointech-location';
import { DecodeError, type DecodeResult } from '../protocol';
import { Alarms, positionOf, positionsResult, stateResult, type Attributes } from '../result';

/**
 * WLNET sensor frames: a text head `(<id>,<n>,<n>,WLNET,5,<n>,` followed by binary data (escaped in
 * the frame, unescapeJt701), the layout Traccar's Jt600ProtocolDecoder reads: the 17-byte location
 * block (speed BCD), sensor time BCD[6], sensor id [5], sensor index BYTE, sensor battery WORD
 * (0.01 V), sensor battery level BYTE (%), sensor signal BYTE (−dBm), sensor type BYTE; type 1 (a
 * temperature and humidity sensor) then temperature WORD (bits 0-11 in 0.1 °C, bits 12-15 the sign;
 * 0xFFFF none), humidity BYTE (%).
 */
export function isWlnet(frame: Buffer): boolean {
  return frame.includes('WLNET,5,');
}

export function decodeWlnet(frame: Buffer, session: { deviceId?: string }): DecodeResult {
  const id = /^\((\d{1,20}),/.exec(frame.toString('latin1', 0, 24))?.[1];
  if (!id) throw new DecodeError('bad_id', 'jt701: WLNET frame without a device id');
  session.deviceId = id;
  let at = -1;
  for (let commas = 0; commas < 6; commas++) {
    at = frame.indexOf(0x2c, at + 1);
    if (at < 0) throw new DecodeError('malformed', 'jt701: WLNET frame without its six header fields');
  }
  at++;
  const fix = readJointechLocation(frame, at, 'bcd');
  const s = at + 17 + 6 + 5 + 1;
  const attributes: Attributes = {
    sensorBattery: frame.readUInt16BE(s) / 100,
    sensorBatteryLevel: frame.readUInt8(s + 2),
    sensorRssi: -frame.readUInt8(s + 3),
  };
  if (frame.readUInt8(s + 4) === 1 && s + 8 <= frame.length) {
    const raw = frame.readUInt16BE(s + 5);
    if (raw !== 0xffff) attributes.temp1 = ((raw & 0xf000 ? -1 : 1) * (raw & 0x0fff)) / 10;
    attributes.humidity = frame.readUInt8(s + 7);
  }
  const o = { type: 'WLNET', crcValid: true, deviceId: id };
  return fix ? positionsResult([positionOf(fix, attributes, new Alarms(), id)], o) : stateResult(attributes, new Alarms(), o);
}
