import { readJointechLocation } from '../jointech-location';
import { Alarms, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import type { DecodeResult } from '../protocol';

/**
 * The vendor location messages 0x5501 (real time) and 0x5502 (blind area: stored while offline →
 * `archive`) that Jointech and other terminals send on JT/T 808 (the layout Traccar's
 * Jt808ProtocolDecoder reads with Jt600ProtocolDecoder's binary location): date DDMMYY and time
 * hhmmss (BCD, UTC), latitude BCD DDMM.mmmm (8 digits), longitude BCD DDDMM.mmmm (9 digits) and a
 * flag nibble (bit 0 fix, bit 1 north, bit 2 east), speed BCD (knots), course BYTE (×2 degrees),
 * signal BYTE, satellites BYTE, mileage DWORD (km), battery BYTE (% up to 100; 0xAA/0xAB charging),
 * cell id DWORD, LAC WORD, product BYTE, status WORD, alarm WORD, then items `id BYTE, length BYTE`:
 * 0x02 altitude, 0x10 wake source, 0x0B lock command [card | password] [unlock result], 0x0C tilt,
 * 0xFC geofence. Product 1 and 2: alarm bit 0 low power; product 3 (vehicle): status bit 5 blocked,
 * alarm bits 0 overspeed, 1 low power, 2 vibration, 3 low battery, 5/6 geofence enter/exit.
 */
const BASE = 6 + 4 + 5 + 1 + 1 + 1 + 1 + 4 + 1 + 4 + 2 + 1 + 2 + 2;

const PRODUCT_3_ALARMS: readonly [bit: number, alarm: string][] = [
  [0, 'overspeed'],
  [1, 'lowPower'],
  [2, 'vibration'],
  [3, 'lowBattery'],
  [5, 'geofenceEnter'],
  [6, 'geofenceExit'],
];

function readItems(body: Buffer, at: number, attributes: Attributes): void {
  let pos = at;
  while (pos + 2 <= body.length) {
    const id = body[pos]!;
    const length = body[pos + 1]!;
    const v = body.subarray(pos + 2, pos + 2 + length);
    pos += 2 + length;
    if (v.length < length) break;
    if (id === 0x02 && length >= 2) attributes.altitude = v.readInt16BE(0);
    else if (id === 0x10 && length >= 1) attributes.wakeSource = v.readUInt8(0);
    else if (id === 0x0b && length >= 1) {
      attributes.lockCommand = v.readUInt8(0);
      if (length >= 5 && length <= 6) attributes.lockCard = v.readUInt32BE(1);
      else if (length >= 7) attributes.lockPassword = v.toString('latin1', 1, 7);
      if (length % 2 === 0) attributes.unlockResult = v.readUInt8(length - 1);
    } else if (id === 0x0c && length >= 6) {
      const axis = (o: number) => v.readInt16BE(o);
      attributes.tilt = `[${axis(0)},${axis(2)},${axis(4)}]`;
    } else if (id === 0xfc && length >= 1) attributes.geofence = v.readUInt8(0);
  }
}

export function decodeJt808VendorLocation(
  body: Buffer,
  blind: boolean,
  deviceId: string,
  o: { type: string; crcValid: boolean; deviceId: string; ack?: Buffer },
): DecodeResult {
  if (body.length < BASE) throw new RangeError(`vendor location of ${body.length} bytes, at least ${BASE} needed`);
  const attributes: Attributes = {};
  const alarms = new Alarms();
  attributes.rssi = body.readUInt8(17);
  attributes.sat = body.readUInt8(18);
  attributes.odometer = body.readUInt32BE(19) * 1000;
  const battery = body.readUInt8(23);
  if (battery <= 100) attributes.batteryLevel = battery;
  else if (battery === 0xaa || battery === 0xab) attributes.charge = true;
  const cid = body.readUInt32BE(24);
  const lac = body.readUInt16BE(28);
  if (cid > 0 && lac > 0) Object.assign(attributes, { cid, lac });
  const product = body.readUInt8(30);
  const status = body.readUInt16BE(31);
  const alarm = body.readUInt16BE(33);
  attributes.status = status;
  if ((product === 1 || product === 2) && alarm & 1) alarms.add('lowPower');
  if (product === 3) {
    attributes.blocked = (status & 0x20) !== 0;
    for (const [bit, name] of PRODUCT_3_ALARMS) if ((alarm >> bit) & 1) alarms.add(name);
  }
  readItems(body, BASE, attributes);
  if (blind) attributes.archive = true;
  const fix = readJointechLocation(body, 0, 'bcd');
  if (!fix) return stateResult(attributes, alarms, o);
  return positionsResult([positionOf(fix, attributes, alarms, deviceId)], o);
}
