import type { ByteReader } from '../byte-reader';
import type { Alarms, Attributes } from '../result';
import { GT06_TERMINAL_ALARM } from './alarms';

/**
 * Field blocks shared by the GT06 message types (layouts from the Concox GT06 / JM-VL01 protocol
 * documents; Traccar's Gt06ProtocolDecoder reads the same blocks). Each reader advances a
 * ByteReader; reads past the end throw DecodeError('truncated').
 */
const KPH_PER_KNOT = 1.852;

export interface GpsBlock {
  /** null when the device sent an impossible date (no fix yet on some firmwares). */
  fixTime: Date | null;
  satellites: number | null;
  latitude: number;
  longitude: number;
  /** knots */
  speed: number;
  course: number;
  valid: boolean;
  /** Only some firmwares report ACC in the course/status word (bit 14 says it is present). */
  ignition: boolean | null;
}

/** YY MM DD hh mm ss (binary) in the device's time zone (UTC unless the login said otherwise). */
export function readDateTime(r: ByteReader, timezoneMinutes: number): Date | null {
  const [y, mo, d, h, mi, s] = [r.u8(), r.u8(), r.u8(), r.u8(), r.u8(), r.u8()];
  if (y > 99 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  return new Date(Date.UTC(2000 + y, mo - 1, d, h, mi, s) - timezoneMinutes * 60_000);
}

/** The same six fields as BCD digits (Wi-Fi packets 0x17 / 0x69 / 0xF3), always UTC. */
export function readBcdDateTime(r: ByteReader): Date | null {
  const parts = [...r.bytes(6)].map((b) => (b >> 4) * 10 + (b & 0x0f));
  const [y, mo, d, h, mi, s] = parts as [number, number, number, number, number, number];
  if (y > 99 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  return new Date(Date.UTC(2000 + y, mo - 1, d, h, mi, s));
}

export interface GpsOptions {
  /** A length byte precedes the satellites; 0 means no GPS data follows (AZ735). */
  hasLength?: boolean;
  hasSatellites?: boolean;
  hasSpeed?: boolean;
  /** Speed as a 2-byte value (JC400). */
  longSpeed?: boolean;
  /** Course/status word before the speed (JC400). */
  swapFlags?: boolean;
}

/**
 * date(6) [length(1)] satellites(1: low nibble) lat(4) lon(4) speed(1, km/h) course/status(2):
 * 18 bytes in the common form. Returns null when a length byte of 0 says there is no fix.
 */
export function readGps(r: ByteReader, timezoneMinutes: number, o: GpsOptions = {}): GpsBlock | null {
  const fixTime = readDateTime(r, timezoneMinutes);
  if (o.hasLength && r.u8() === 0) return null;
  const satellites = o.hasSatellites === false ? null : r.u8() & 0x0f;
  let latitude = r.u32() / 30000 / 60;
  let longitude = r.u32() / 30000 / 60;
  let flags = o.swapFlags ? r.u16() : 0;
  let speed = 0;
  if (o.hasSpeed !== false) speed = (o.longSpeed ? r.u16() : r.u8()) / KPH_PER_KNOT;
  if (!o.swapFlags) flags = r.u16();
  if ((flags & 0x0400) === 0) latitude = -latitude; // bit 10: north
  if ((flags & 0x0800) !== 0) longitude = -longitude; // bit 11: west
  return {
    fixTime,
    satellites,
    latitude,
    longitude,
    speed,
    course: flags & 0x03ff,
    valid: (flags & 0x1000) !== 0, // bit 12: GPS fixed
    ignition: (flags & 0x4000) !== 0 ? (flags & 0x8000) !== 0 : null,
  };
}

/** Serving cell: MCC (bit 15 set = 2-byte MNC), MNC, LAC, cell id. */
export interface CellTower {
  mcc: number;
  mnc: number;
  lac: number;
  cid: number;
}

export interface LbsWidths {
  /** MNC as 2 bytes even without the MCC flag (0x11, SL4X). */
  wideMnc?: boolean;
  /** LAC as 4 bytes (4G packets 0xA0, 0xA2, 0xA5; 0x38 with a 4G cell type). */
  wideLac?: boolean;
  /** Cell id bytes: 3 (default), 4 or 8. */
  cidBytes?: 3 | 4 | 8;
  /** A length byte precedes the block (status packets); 0 = no cell. */
  hasLength?: boolean;
}

function readCid(r: ByteReader, bytes: 3 | 4 | 8): number {
  if (bytes === 3) return r.u24();
  if (bytes === 4) return r.u32();
  return r.u64();
}

export function readLbs(r: ByteReader, w: LbsWidths = {}): CellTower | null {
  let declared = 0;
  const start = r.offset;
  if (w.hasLength) {
    declared = r.u8();
    if (declared === 0) {
      // No cell. Some firmwares still send a zeroed block of 45 bytes: skipped when it is there and bytes 9..44 are all zero.
      let zeroed = r.remaining >= 45;
      for (let i = 9; zeroed && i < 45; i++) {
        if (r.peek(i) !== 0) {
          zeroed = false;
          break;
        }
      }
      if (zeroed) r.skip(Math.min(r.remaining, 45));
      return null;
    }
  }
  const mccRaw = r.u16();
  const wideMnc = (mccRaw & 0x8000) !== 0 || w.wideMnc === true;
  const mnc = wideMnc ? r.u16() : r.u8();
  // A length that only fits the 4G widths (LAC 4, cell id 8) means 4G, whatever the message type.
  const fourG = w.hasLength === true && declared >= 15 + (wideMnc ? 2 : 1);
  const lac = w.wideLac || fourG ? r.u32() : r.u16();
  const cid = readCid(r, fourG ? 8 : (w.cidBytes ?? 3));
  const used = r.offset - start;
  if (w.hasLength && declared > used) r.skip(Math.min(declared - used, r.remaining));
  return { mcc: mccRaw & 0x7fff, mnc, lac, cid };
}

/** The serving cell as attributes (nothing when the country code is not a real one: an empty or misread block). */
export function cellAttributes(cell: CellTower | null): Attributes {
  return cell && cell.mcc >= 1 && cell.mcc <= 999 ? { mcc: cell.mcc, mnc: cell.mnc, lac: cell.lac, cid: cell.cid } : {};
}

/**
 * Terminal information byte: bit 0 armed (some models), bit 1 ACC, bit 2 charging, bits 3..5 alarm,
 * bit 6 GPS tracking on, bit 7 oil/electricity cut (blocked).
 */
export function readTerminalInfo(info: number, attributes: Attributes, alarms: Alarms, overspeedVariant = false): void {
  attributes.status = info;
  attributes.ignition = (info & 0x02) !== 0;
  attributes.charge = (info & 0x04) !== 0;
  attributes.blocked = (info & 0x80) !== 0;
  const code = (info >> 3) & 0x07;
  alarms.add(code === 7 && overspeedVariant ? 'overspeed' : GT06_TERMINAL_ALARM.get(code));
}

/** Voltage level byte: 0..6 steps per the document (→ %), some firmwares send 7..100 as a percentage. */
export function batteryLevelOf(level: number): number | null {
  if (level <= 6) return Math.trunc((level * 100) / 6);
  return level <= 100 ? level : null;
}
