import { ByteReader } from '../byte-reader';
import { macOf, networkAttributes, type Cell } from '../network';
import type { DecodedPosition } from '../protocol';
import { Alarms, positionOf, type Attributes } from '../result';
import { MEITRACK_EVENT_ALARMS } from './events';

/**
 * Meitrack binary reports (facts from the Meitrack T366/T399/P99/T622 GPRS protocol documents and
 * Traccar's MeitrackProtocolDecoder; little-endian throughout, times in seconds since 2000-01-01):
 *
 * CCE: remaining cache(4) packet count(2), then per packet length(2, of what follows) parameter
 * count(2) and four groups of parameters with 1-, 2-, 4-byte and length-prefixed values, each a
 * count(1) then id(1, or 2 when the first byte is 0xFE) + value. The parameter ids are the table
 * below; unknown ids are skipped by their width.
 *
 * CCC: protocol version(2) packet length(2) remaining cache(4), then 52-byte packets: event,
 * lat, lon (1e-6°), time, valid, satellites, GSM signal, speed km/h, course, hdop ×10, altitude,
 * odometer, runtime, mcc, mnc, lac, cell id, status, adc1, battery and power (0.01 V), geofence.
 */
const Y2000_S = 946_684_800;
const KPH_PER_KNOT = 1.852;

type Width = 1 | 2 | 4;
/** Plain numeric parameters: id → [Traccar key, scale]. Ids with their own handling are in `readFixed`. */
const PARAMS: Record<Width, ReadonlyMap<number, [string, number]>> = {
  1: new Map([
    [0x06, ['sat', 1]],
    [0x07, ['rssi', 1]],
    [0x14, ['output', 1]],
    [0x15, ['input', 1]],
    [0x97, ['throttle', 1]],
    [0x9d, ['fuel', 1]],
    [0xfe69, ['batteryLevel', 1]],
  ]),
  2: new Map([
    [0x09, ['course', 1]],
    [0x0a, ['hdop', 0.1]], // ×10 as in CCC (Traccar keeps the raw value)
    [0x16, ['adc1', 0.01]],
    [0x17, ['adc2', 0.01]],
    [0x19, ['battery', 0.01]],
    [0x1a, ['power', 0.01]],
    [0x29, ['fuel', 0.01]],
    [0x91, ['obdSpeed', 1]],
    [0x92, ['obdSpeed', 1]],
    [0x98, ['fuelUsed', 1]],
    [0x99, ['rpm', 1]],
    [0x9c, ['coolantTemp', 1]],
    [0x9f, ['temp1', 1]],
    [0xc9, ['fuelConsumption', 1]],
  ]),
  4: new Map([
    [0x0c, ['odometer', 1]],
    [0x0d, ['runtime', 1]],
    [0x9b, ['obdOdometer', 1]],
    [0xa0, ['fuelUsed', 0.001]],
    [0xa2, ['fuelConsumption', 0.01]],
    [0xfef4, ['hours', 60_000]],
  ]),
};

interface Packet {
  a: Attributes;
  alarms: Alarms;
  latitude: number | null;
  longitude: number | null;
  time: Date | null;
  valid: boolean;
  speed: number;
  course: number;
  cells: Cell[];
  wifi: string[];
}

function readId(r: ByteReader): number {
  return r.peek() === 0xfe ? r.u16() : r.u8();
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

function readFixed(r: ByteReader, width: Width, id: number, p: Packet): void {
  const value = width === 1 ? r.u8() : width === 2 ? r.u16le() : r.u32le();
  const plain = PARAMS[width].get(id);
  if (plain) {
    p.a[plain[0]] = round(value * plain[1]);
    return;
  }
  if (width === 1 && id === 0x01) p.a.event = value;
  else if (width === 1 && id === 0x05) p.valid = value > 0;
  else if (width === 1 && id === 0x47 && value > 0) p.a.lock = value === 2;
  else if (width === 2 && id === 0x08) p.speed = value / KPH_PER_KNOT;
  else if (width === 2 && id === 0x0b) p.a.altitude = (value << 16) >> 16;
  else if (width === 2 && id === 0x40) p.a.event = value;
  else if (width === 4 && id === 0x02) p.latitude = (value | 0) / 1e6;
  else if (width === 4 && id === 0x03) p.longitude = (value | 0) / 1e6;
  else if (width === 4 && id === 0x04) p.time = new Date((Y2000_S + value) * 1000);
  else if (width === 4 && id === 0x25) p.a.driverUniqueId = String(value);
}

function readVariable(r: ByteReader, id: number, p: Packet): void {
  const v = new ByteReader(r.bytes(r.u8()), 'meitrack');
  if (id >= 0x1d && id <= 0x25) {
    p.wifi.push(`${macOf(v.bytes(6))}/${v.i16le()}`);
  } else if (id >= 0x0e && id <= 0x13 && id !== 0x11) {
    p.cells.push({ mcc: v.u16le(), mnc: v.u16le(), lac: v.u16le(), cid: v.u32le(), rssi: v.i16le() });
  } else if (id >= 0x2a && id <= 0x31) {
    v.skip(1); // sensor label
    p.a[`temp${id - 0x2a + 1}`] = v.i16le() / 100;
  } else if (id === 0xfe31) {
    const alarmProtocol = v.u8();
    p.a.alarmType = v.u8();
    if (alarmProtocol === 0x02 && v.remaining > 8) {
      const file = v.bytes(v.remaining).toString('latin1');
      p.a.image = `${file.slice(0, 4)}-${file.slice(4, 6)}-${file.slice(6, 8)}/${file}`;
    }
  } else if (id === 0xfe73) {
    v.skip(1); // version
    p.a.tagName = v.bytes(v.u8()).toString('latin1');
    v.skip(6); // MAC
    p.a.tagBattery = v.u8();
    p.a.tagTemp = v.i16le() / 256;
    p.a.tagHumidity = v.i16le() / 256;
  } else if (id === 0xfea8) {
    for (let k = 1; k <= 3; k++) {
      const present = v.u8() > 0;
      const level = v.u8();
      if (present) p.a[k === 1 ? 'batteryLevel' : `battery${k}Level`] = level;
    }
  }
}

function readCcePacket(r: ByteReader, deviceId: string): DecodedPosition | { state: Attributes; alarms: Alarms; time: Date | null } {
  const body = new ByteReader(r.bytes(r.u16le()), 'meitrack');
  body.skip(2); // parameter count
  const p: Packet = {
    a: {},
    alarms: new Alarms(),
    latitude: null,
    longitude: null,
    time: null,
    valid: false,
    speed: 0,
    course: 0,
    cells: [],
    wifi: [],
  };
  for (const width of [1, 2, 4] as const) {
    const count = body.u8();
    for (let i = 0; i < count; i++) readFixed(body, width, readId(body), p);
  }
  const variable = body.u8();
  for (let i = 0; i < variable; i++) readVariable(body, readId(body), p);
  Object.assign(p.a, networkAttributes(p.cells, p.wifi));
  if (typeof p.a.event === 'number') p.alarms.add(MEITRACK_EVENT_ALARMS.get(p.a.event));
  const course = typeof p.a.course === 'number' ? p.a.course : 0;
  delete p.a.course;
  if (p.latitude === null || p.longitude === null || !p.time) return { state: p.a, alarms: p.alarms, time: p.time };
  return positionOf(
    { fixTime: p.time, valid: p.valid, latitude: p.latitude, longitude: p.longitude, speed: p.speed, course },
    p.a,
    p.alarms,
    deviceId,
  );
}

export interface BinaryReports {
  positions: DecodedPosition[];
  /** Packets without a fix (the last one's state; every alarm). */
  state: { attributes: Attributes; alarms: Alarms; time: Date | null } | null;
  /** Packets read (what the acknowledgement confirms). */
  count: number;
}

/** The CCE body: from after `CCE,` to before `*`. */
export function decodeCce(body: Buffer, deviceId: string): BinaryReports {
  const r = new ByteReader(body, 'meitrack');
  r.skip(4); // remaining cache
  const count = r.u16le();
  const out: BinaryReports = { positions: [], state: null, count };
  for (let i = 0; i < count; i++) {
    const packet = readCcePacket(r, deviceId);
    if ('state' in packet) {
      const alarms = out.state?.alarms ?? new Alarms();
      packet.alarms.all.forEach((a) => alarms.add(a));
      out.state = { attributes: packet.state, alarms, time: packet.time };
    } else {
      out.positions.push(packet);
    }
  }
  return out;
}

const CCC_PACKET = 52;

/** The CCC body: from after `CCC,` to before `*`. */
export function decodeCcc(body: Buffer, deviceId: string): BinaryReports {
  const r = new ByteReader(body, 'meitrack');
  r.skip(8); // protocol version, packet length, remaining cache
  const out: BinaryReports = { positions: [], state: null, count: 0 };
  while (r.remaining >= CCC_PACKET) {
    const event = r.u8();
    const latitude = r.i32le() / 1e6;
    const longitude = r.i32le() / 1e6;
    const fixTime = new Date((Y2000_S + r.u32le()) * 1000);
    const valid = r.u8() === 1;
    const a: Attributes = { event, sat: r.u8(), rssi: r.u8() };
    const speed = r.u16le() / KPH_PER_KNOT;
    const course = r.u16le();
    a.hdop = r.u16le() / 10;
    a.altitude = r.u16le();
    a.odometer = r.u32le();
    a.runtime = r.u32le();
    Object.assign(a, { mcc: r.u16le(), mnc: r.u16le(), lac: r.u16le(), cid: r.u16le() });
    a.status = r.u16le();
    a.adc1 = r.u16le();
    a.battery = r.u16le() / 100;
    a.power = r.u16le() / 100;
    r.skip(4); // geofence
    const alarms = new Alarms();
    alarms.add(MEITRACK_EVENT_ALARMS.get(event));
    out.positions.push(positionOf({ fixTime, valid, latitude, longitude, speed, course }, a, alarms, deviceId));
    out.count++;
  }
  return out;
}
