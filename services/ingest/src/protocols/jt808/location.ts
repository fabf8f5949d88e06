import { bcdDateTime } from '../bcd';
import type { DecodedPosition } from '../protocol';
import { JT808_ALARM_BITS } from './alarms';

/**
 * The JT/T 808 location information (body of 0x0200, each item of 0x0704): a 28-byte basic block
 * (alarm flags DWORD, status DWORD, latitude and longitude DWORD in 1e-6 degrees, altitude WORD m,
 * speed WORD 0.1 km/h, direction WORD, time BCD[6] YYMMDDhhmmss in GMT+8) followed by additional
 * information items `id(1) length(1) value`. Facts from JT/T 808-2013/2019 tables 23-28 and, for
 * the vendor items (0xCC and up), Traccar's HuabaoProtocolDecoder.
 */
export const JT808_BASIC_LENGTH = 28;
/** The standard's time zone: Beijing time. */
export const JT808_TIME_OFFSET_MINUTES = 8 * 60;
const KNOTS_PER_KMH = 1 / 1.852;

type Attributes = DecodedPosition['attributes'];

/** What the additional items set besides attributes. */
interface Extras {
  attributes: Attributes;
  odometer: number | null;
  satellites: number | null;
  power: number | null;
  battery: number | null;
  /** 0x12: the area in/out item says which way, refining the `geofence` alarm. */
  geofence: 'geofenceEnter' | 'geofenceExit' | null;
}

type ItemReader = (v: Buffer, x: Extras) => void;

/** Additional information items: id → reader (a value shorter than the reader needs skips the item). */
const ITEMS: ReadonlyMap<number, ItemReader> = new Map<number, ItemReader>([
  [0x01, (v, x) => void (x.odometer = v.readUInt32BE(0) * 100)], // mileage, 0.1 km
  [0x02, (v, x) => void (x.attributes.fuel = v.readUInt16BE(0) / 10)], // fuel, 0.1 L
  [0x03, (v, x) => void (x.attributes.obdSpeed = v.readUInt16BE(0) / 10)], // tachograph speed, 0.1 km/h
  [0x04, (v, x) => void (x.attributes.eventId = v.readUInt16BE(0))], // manual-confirmation alarm event id
  [0x12, (v, x) => void (x.geofence = v.readUInt8(v.length - 1) === 0 ? 'geofenceEnter' : 'geofenceExit')], // area type, [id], direction
  [0x25, (v, x) => void (x.attributes.io37 = v.readUInt32BE(0))], // extended vehicle signal status bits
  [0x2a, (v, x) => void (x.attributes.io42 = v.readUInt16BE(0))], // IO status bits (deep sleep, sleep)
  [
    0x2b, // analog: AD0 in bits 0-15, AD1 in bits 16-31
    (v, x) => {
      const raw = v.readUInt32BE(0);
      x.attributes.adc1 = raw & 0xffff;
      x.attributes.adc2 = raw >>> 16;
    },
  ],
  [0x30, (v, x) => void (x.attributes.rssi = v.readUInt8(0))], // wireless signal strength
  [0x31, (v, x) => void (x.satellites = v.readUInt8(0))], // GNSS satellites
  [0xcc, (v, x) => void (x.attributes.iccid = v.toString('latin1').replace(/\0+$/, ''))],
  [0xd3, (v, x) => void (x.power = v.readUInt16BE(0) / 10)],
  [0xd4, (v, x) => void (x.attributes.batteryLevel = v.readUInt8(0))],
  [0xd5, (v, x) => void (v.length === 2 ? (x.battery = v.readUInt16BE(0) / 100) : undefined)],
  [
    0xee,
    (v, x) => {
      x.attributes.rssi = v.readUInt8(0);
      x.power = v.readUInt16BE(1) / 1000;
      x.battery = v.readUInt16BE(3) / 1000;
      x.satellites = v.readUInt8(5);
    },
  ],
  [0xfe, (v, x) => void (x.attributes.batteryLevel = v.readUInt8(0))],
]);

export interface Jt808Location {
  /** null when the time is not a calendar value (no fix yet on some terminals). */
  position: DecodedPosition | null;
  /** The device state of the report: what a state record carries when there is no usable fix. */
  attributes: Attributes;
  alarms: string[];
}

/** Alarms of the flag word in Traccar's precedence; the area item turns `geofence` into enter or exit. */
function alarmsOf(flags: number, geofence: Extras['geofence']): string[] {
  const out: string[] = [];
  for (const [bit, alarm] of JT808_ALARM_BITS) {
    if (!((flags >>> bit) & 1)) continue;
    const name = alarm === 'geofence' && geofence ? geofence : alarm;
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** Reads the additional items from `at` to the end of `body`; an item running past the end stops the reading. */
function readItems(body: Buffer, at: number, x: Extras): void {
  let pos = at;
  while (pos + 2 <= body.length) {
    const id = body[pos]!;
    const length = body[pos + 1]!;
    const end = pos + 2 + length;
    if (end > body.length) break;
    const reader = ITEMS.get(id);
    if (reader) {
      try {
        reader(body.subarray(pos + 2, end), x);
      } catch (err) {
        if (!(err instanceof RangeError)) throw err; // a value too short for its item: skipped
      }
    }
    pos = end;
  }
}

/**
 * Some terminals (Traccar's test data) send 18 vendor bytes instead of items, recognisable by a first
 * byte of 0 (no item has id 0): reserved(4) mileage DWORD km, battery WORD 0.1 V, area id DWORD,
 * signal BYTE, reserved(3).
 */
function readVendorTail(body: Buffer, at: number, x: Extras): boolean {
  if (body.length - at !== 18 || body[at] !== 0) return false;
  x.odometer = body.readUInt32BE(at + 4) * 1000;
  x.battery = body.readUInt16BE(at + 8) / 10;
  x.attributes.rssi = body.readUInt8(at + 14);
  return true;
}

/** Decodes one location information block (`body` ends where the block ends). */
export function decodeJt808Location(body: Buffer, deviceId: string | undefined): Jt808Location {
  const alarmFlags = body.readUInt32BE(0);
  const status = body.readUInt32BE(4);
  let latitude = body.readUInt32BE(8) / 1e6;
  let longitude = body.readUInt32BE(12) / 1e6;
  if (status & 0x04) latitude = -latitude; // bit 2: south
  if (status & 0x08) longitude = -longitude; // bit 3: west
  const altitude = body.readInt16BE(16);
  const speed = (body.readUInt16BE(18) / 10) * KNOTS_PER_KMH;
  const course = body.readUInt16BE(20);
  const fixTime = bcdDateTime(body, 22, 'ymd', JT808_TIME_OFFSET_MINUTES);

  const x: Extras = {
    attributes: { status, blocked: (status & 0x400) !== 0 },
    odometer: null,
    satellites: null,
    power: null,
    battery: null,
    geofence: null,
  };
  if (alarmFlags) x.attributes.alarmFlags = alarmFlags;
  if (!readVendorTail(body, JT808_BASIC_LENGTH, x)) readItems(body, JT808_BASIC_LENGTH, x);
  const alarms = alarmsOf(alarmFlags, x.geofence);
  const ignition = (status & 0x01) !== 0;
  const attributes: Attributes = { ...x.attributes, ignition };
  if (x.odometer !== null) attributes.odometer = x.odometer;
  if (x.satellites !== null) attributes.sat = x.satellites;
  if (x.power !== null) attributes.power = x.power;
  if (x.battery !== null) attributes.battery = x.battery;
  const inRange = Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180 && course <= 360;
  if (!fixTime || !inRange) return { position: null, attributes, alarms };
  return {
    position: {
      deviceId,
      fixTime,
      valid: (status & 0x02) !== 0, // bit 1: positioned
      latitude,
      longitude,
      speed,
      course,
      altitude,
      satellites: x.satellites,
      ignition,
      odometer: x.odometer,
      power: x.power,
      battery: x.battery,
      alarm: alarms.length ? alarms.join(',') : null,
      attributes: x.attributes,
    },
    attributes,
    alarms,
  };
}
