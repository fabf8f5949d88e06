import { ByteReader } from '../byte-reader';
import type { DecodeResult } from '../protocol';
import type { Attributes } from '../result';
import { GT06_AZ735_STATUS, GT06_DASHCAM_EVENT, GT06_MODULAR_EVENT } from './alarms';
import { cellAttributes, readDateTime, readGps, readLbs, type GpsBlock } from './blocks';
import { encodeGt06Packet } from './ack';
import { Alarms, type Gt06Message } from './message';

/**
 * GT06 message types with their own fix layouts (facts from the Concox / Jimi documents as
 * Traccar's Gt06ProtocolDecoder reads them):
 * - 0x2A GPS address request (GK310): a GPS block; answered with 0x97 `NA&&NA&&0##` (no address).
 * - 0x34 X1 GPS: data/alarm word, GPS, odometer, cell (cid 4), driver id, battery, power, inputs, ADCs.
 * - 0x38 GPS + cell (extended): GPS, upload mode, re-upload, cell with a radio type (≥3: 4G widths).
 * - 0x61 iButton: IMEI, GPS, cell (cid 4), driver id (6 bytes, decimal).
 * - 0x70 modular (extended): modules type(2) length(2) value: ICCID, satellites, cell, battery,
 *   hdop, index, door/tamper, event, odometer, GPS (0x33), BLE tag (0x7F).
 * - 0x95 dashcam alarm (JC100 / JC400): time or GPS, event, event data, event file names.
 * - 0x32 / 0x33 AZ735 (extended): GPS with a length byte, cell, skipped cell and Wi-Fi lists,
 *   status (0x33: arm/disarm and alarms).
 */
const KPH_PER_KNOT = 1.852;

/** Module table of 0x37 / 0x38 tails: type(2) length(1) value. */
function readModuleTail(r: ByteReader, a: Attributes): void {
  while (r.remaining >= 3) {
    const module = r.u16();
    const value = new ByteReader(r.bytes(Math.min(r.u8(), r.remaining)), 'gt06');
    if (module === 0x0027 && value.remaining >= 2) a.power = value.u16() / 100;
    else if (module === 0x002e && value.remaining >= 4) a.odometer = value.u32();
    else if (module === 0x003b && value.remaining >= 2) a.accuracy = value.u16() / 100;
  }
}

export function decodeAddressRequest(m: Gt06Message): DecodeResult {
  const gps = readGps(m.r, m.tz);
  const reply = Buffer.from('NA&&NA&&0##', 'latin1');
  const content = Buffer.concat([Buffer.from([reply.length, 0, 0, 0, 0]), reply]);
  return m.located(gps, {}, new Alarms(), encodeGt06Packet(true, 0x97, 0, content));
}

export function decodeX1Gps(m: Gt06Message): DecodeResult {
  const { r } = m;
  r.skip(4); // data and alarm
  const gps = readGps(r, m.tz);
  r.skip(2); // terminal info
  const a: Attributes = { odometer: r.u32() };
  Object.assign(a, cellAttributes({ mcc: r.u16(), mnc: r.u8(), lac: r.u16(), cid: r.u32() }));
  const driver = r.u32();
  if (driver > 0) a.driverUniqueId = String(driver);
  a.battery = r.u16() / 100;
  a.power = r.u16() / 100;
  const portInfo = r.u32();
  a.input = r.u8();
  a.output = r.u8();
  const adcCount = (portInfo >>> 20) & 0x0f;
  for (let i = 1; i <= adcCount && r.remaining >= 2; i++) a[`adc${i}`] = r.u16() / 100;
  return m.located(gps, a, new Alarms(), null); // Traccar sends no reply to 0x34
}

export function decodeGpsLbs8(m: Gt06Message): DecodeResult {
  const { r } = m;
  const gps = readGps(r, m.tz);
  r.skip(2); // data upload mode, re-upload
  const a: Attributes = {};
  if (r.remaining > 0) {
    const cellType = r.u8();
    const fourG = cellType >= 3;
    const cell = readLbs(r, { wideLac: fourG, cidBytes: fourG ? 8 : 3 });
    r.skip(fourG ? 2 : 1); // signal
    Object.assign(a, cellAttributes(cell));
  }
  readModuleTail(r, a);
  return m.located(gps, a, new Alarms(), null);
}

export function decodeIButton(m: Gt06Message): DecodeResult {
  const { r } = m;
  r.skip(8); // IMEI
  const gps = readGps(r, m.tz);
  const a: Attributes = cellAttributes(readLbs(r, { cidBytes: 4 }));
  a.driverUniqueId = String(r.u32() * 0x10000 + r.u16());
  return m.located(gps, a, new Alarms());
}

/** Module 0x33: unix time(4) satellites(1) altitude(2) lat(4) lon(4) speed(1, km/h) course/status(2). */
function readModularGps(s: ByteReader): { gps: GpsBlock; altitude: number } {
  const seconds = s.u32();
  const fixTime = seconds > 0 ? new Date(seconds * 1000) : null;
  const satellites = s.u8();
  const altitude = s.i16();
  let latitude = s.u32() / 30000 / 60;
  let longitude = s.u32() / 30000 / 60;
  const speed = s.u8() / KPH_PER_KNOT;
  const flags = s.u16();
  if ((flags & 0x0400) === 0) latitude = -latitude;
  if ((flags & 0x0800) !== 0) longitude = -longitude;
  const gps = { fixTime, satellites, latitude, longitude, speed, course: flags & 0x03ff, valid: (flags & 0x1000) !== 0, ignition: null };
  return { gps, altitude };
}

export function decodeModular(m: Gt06Message): DecodeResult {
  const { r } = m;
  const a: Attributes = {};
  const alarms = new Alarms();
  let gps: GpsBlock | null = null;
  while (r.remaining >= 4) {
    const moduleType = r.u16();
    const s = new ByteReader(r.bytes(Math.min(r.u16(), r.remaining)), 'gt06');
    switch (moduleType) {
      case 0x03:
        a.iccid = s.bytes(10).toString('hex');
        break;
      case 0x09:
        a.sat = s.u8();
        break;
      case 0x0a:
        a.satVisible = s.u8();
        break;
      case 0x11: {
        const cell = { mcc: s.u16(), mnc: s.u16(), lac: s.u16(), cid: s.u24() };
        if (cell.cid > 0) Object.assign(a, cellAttributes(cell));
        break;
      }
      case 0x18:
        a.battery = s.u16() / 100;
        break;
      case 0x28:
        a.hdop = s.u8() / 10;
        break;
      case 0x29:
        a.index = s.u32();
        break;
      case 0x2a: {
        const input = s.u8();
        a.door = (input & 0x0f) > 0;
        a.tamper = input >> 4 > 0;
        break;
      }
      case 0x2b: {
        const event = s.u8();
        alarms.add(GT06_MODULAR_EVENT.get(event));
        a.event = event;
        break;
      }
      case 0x2e:
        a.odometer = s.u32le();
        break;
      case 0x33: {
        const fix = readModularGps(s);
        gps = fix.gps;
        a.altitude = fix.altitude;
        break;
      }
      case 0x34:
        a.event = s.u8();
        break;
      case 0x7f:
        a.tag1Id = s.bytes(6).toString('hex');
        a.tag1Battery = s.u16() / 1000;
        a.tag1BatteryLevel = s.u8();
        a.tag1Temp = s.i16() / 10;
        a.tag1Humidity = s.i16();
        a.tag1Status = s.u8();
        break;
      default:
    }
  }
  // Traccar answers 0x70 with the 7878 acknowledgement.
  return m.located(gps, a, alarms, m.ack(false));
}

export function decodeDashcamAlarm(m: Gt06Message): DecodeResult {
  const { r } = m;
  const jc400 = m.variant === 'JC400';
  const withGps = m.env.declared - 5 > 7;
  let gps: GpsBlock | null = null;
  let deviceTime: Date | null = null;
  if (withGps) {
    if (jc400) r.skip(3); // marker, version
    gps = readGps(r, m.tz, { hasSatellites: jc400, hasSpeed: jc400, longSpeed: jc400, swapFlags: jc400 });
  } else {
    deviceTime = readDateTime(r, m.tz);
  }
  const a: Attributes = {};
  const alarms = new Alarms();
  if (jc400) a.power = r.u16() / 10;
  const event = r.u8();
  a.event = event;
  alarms.add(event === 0x01 ? (withGps ? 'sos' : 'general') : GT06_DASHCAM_EVENT.get(event));
  if (r.remaining >= 2) a.eventData = r.u16();
  if (r.remaining > 0) a.eventFiles = r.bytes(r.remaining).toString('latin1');
  return m.located(gps, a, alarms, m.ack(), deviceTime);
}

export function decodeAz735(m: Gt06Message): DecodeResult {
  const { r } = m;
  const start = r.offset;
  let gps = readGps(r, m.tz, { hasLength: true });
  let deviceTime: Date | null = null;
  if (!gps) {
    r.rewind(r.offset - start);
    deviceTime = readDateTime(r, m.tz);
    r.skip(1); // GPS length 0
    gps = null;
  }
  const a: Attributes = {};
  const cell = readLbs(r, { hasLength: true });
  if (cell) {
    Object.assign(a, cellAttributes(cell));
    a.rssi = r.u8();
  }
  r.skip(r.u8()); // additional cells
  r.skip(r.u8()); // Wi-Fi access points
  const status = r.u8();
  a.status = status;
  const alarms = new Alarms();
  if (m.type === 0x33) {
    if (status === 0xa0) a.armed = true;
    else if (status === 0xa1) a.armed = false;
    alarms.add(GT06_AZ735_STATUS.get(status));
  }
  return m.located(gps, a, alarms, m.ack(true), deviceTime);
}
