import { GT06_TERMINAL_ALARM } from './alarms';

/**
 * Field blocks shared by the GT06 location, alarm and LBS packets (layouts from the Concox GT06
 * protocol document; Traccar's Gt06ProtocolDecoder decodes the same blocks). Each reader takes the
 * packet body and an offset and returns the decoded block plus the next offset; Buffer reads past
 * the end throw RangeError, which the decoder turns into DecodeError('truncated').
 */

const KPH_PER_KNOT = 1.852;

export interface GpsBlock {
  /** null when the device sent an impossible date (no fix yet on some firmwares). */
  fixTime: Date | null;
  satellites: number;
  latitude: number;
  longitude: number;
  /** knots */
  speed: number;
  course: number;
  valid: boolean;
  /** Only some firmwares report ACC in the course/status word (bit 14 says it is present). */
  ignition: boolean | null;
}

/** YY MM DD hh mm ss in the device's time zone (UTC unless the login said otherwise). */
export function readDateTime(body: Buffer, at: number, timezoneMinutes: number): Date | null {
  const [y, mo, d, h, mi, s] = [0, 1, 2, 3, 4, 5].map((i) => body.readUInt8(at + i)) as [number, number, number, number, number, number];
  if (y > 99 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return null;
  return new Date(Date.UTC(2000 + y, mo - 1, d, h, mi, s) - timezoneMinutes * 60_000);
}

/** date(6) satellites(1: low nibble) lat(4) lon(4) speed(1, km/h) course/status(2) = 18 bytes. */
export function readGpsBlock(body: Buffer, at: number, timezoneMinutes: number): { gps: GpsBlock; next: number } {
  const fixTime = readDateTime(body, at, timezoneMinutes);
  const satellites = body.readUInt8(at + 6) & 0x0f;
  let latitude = body.readUInt32BE(at + 7) / 30000 / 60;
  let longitude = body.readUInt32BE(at + 11) / 30000 / 60;
  const speed = body.readUInt8(at + 15) / KPH_PER_KNOT;
  const flags = body.readUInt16BE(at + 16);
  if ((flags & 0x0400) === 0) latitude = -latitude; // bit 10: north
  if ((flags & 0x0800) !== 0) longitude = -longitude; // bit 11: west
  return {
    gps: {
      fixTime,
      satellites,
      latitude,
      longitude,
      speed,
      course: flags & 0x03ff,
      valid: (flags & 0x1000) !== 0, // bit 12: GPS fixed
      ignition: (flags & 0x4000) !== 0 ? (flags & 0x8000) !== 0 : null,
    },
    next: at + 18,
  };
}

export interface CellTower {
  mcc: number;
  mnc: number;
  lac: number;
  cid: number;
}

/**
 * MCC(2) MNC(1, or 2 when MCC bit 15 is set or in 0x11 packets) LAC(2) cell id(3, or 4 in 0x11).
 * Status packets prefix the block with its own length (which counts the length byte).
 */
export function readLbsBlock(body: Buffer, at: number, wide: boolean, withLength: boolean): { cell: CellTower | null; next: number } {
  let pos = at;
  let declared = 0;
  if (withLength) {
    declared = body.readUInt8(pos++);
    if (declared === 0) return { cell: null, next: pos };
  }
  const mccRaw = body.readUInt16BE(pos);
  pos += 2;
  const mnc = (mccRaw & 0x8000) !== 0 || wide ? body.readUInt16BE(pos) : body.readUInt8(pos);
  pos += (mccRaw & 0x8000) !== 0 || wide ? 2 : 1;
  const lac = body.readUInt16BE(pos);
  pos += 2;
  const cid = wide ? body.readUInt32BE(pos) : body.readUIntBE(pos, 3);
  pos += wide ? 4 : 3;
  if (withLength && declared > pos - at) pos = at + declared;
  return { cell: { mcc: mccRaw & 0x7fff, mnc, lac, cid }, next: pos };
}

export interface TerminalStatus {
  attributes: Record<string, number | boolean>;
  ignition: boolean;
  alarm: string | null;
}

/** Terminal information byte: bit 1 ACC, bit 2 charging, bits 3..5 alarm, bit 7 oil/electricity cut. */
export function readTerminalInfo(info: number): TerminalStatus {
  return {
    attributes: { status: info, charge: (info & 0x04) !== 0, blocked: (info & 0x80) !== 0 },
    ignition: (info & 0x02) !== 0,
    alarm: GT06_TERMINAL_ALARM.get((info >> 3) & 0x07) ?? null,
  };
}

/** terminal info(1) voltage level(1, 0..6) GSM signal(1, 0..4) */
export function readStatusBlock(body: Buffer, at: number): { status: TerminalStatus; next: number } {
  const status = readTerminalInfo(body.readUInt8(at));
  // Voltage level 0..6 per the document; some firmwares send a percentage instead.
  const level = body.readUInt8(at + 1);
  status.attributes.batteryLevel = level <= 6 ? Math.trunc((level * 100) / 6) : level;
  status.attributes.rssi = body.readUInt8(at + 2);
  return { status, next: at + 3 };
}
