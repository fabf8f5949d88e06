import type { Attributes, Fix } from '../result';

/**
 * Field readers shared by the @Track reports (layouts from Queclink's GV300, GV55 and GL300 @Track
 * protocols; Traccar's Gl200TextProtocolDecoder reads the same fields):
 * - the 12-field location block `<GPS accuracy>,<speed km/h>,<azimuth>,<altitude m>,<longitude>,
 *   <latitude>,<GPS UTC time YYYYMMDDhhmmss>,<MCC>,<MNC>,<LAC hex>,<cell id hex>,<reserved | odometer km>`
 *   (GPS accuracy 0 = no fix; the GL300 puts its odometer in the last field);
 * - the device status `XXYYZZ` (hex): XX motion/ignition state, YY digital inputs, ZZ outputs.
 */
export const LOCATION_FIELDS = 12;
const KNOTS_PER_KMH = 1 / 1.852;

const NUMBER = /^-?\d+(\.\d+)?$/;
const COORDINATE = /^-?\d{1,3}\.\d{1,7}$/;

export function num(value: string | undefined): number | null {
  return value !== undefined && NUMBER.test(value) ? Number(value) : null;
}

/** YYYYMMDDhhmmss UTC, or null when the field is not a date. */
export function time(value: string | undefined): Date | null {
  const m = value ? /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(value) : null;
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return mo >= 1 && mo <= 12 && date.getUTCDate() === d && h < 24 && mi < 60 && s < 60 ? date : null;
}

export interface Location {
  fix: Fix | null;
  attributes: Attributes;
}

/** The location block at `at` (12 fields); `fix` is null when it holds no coordinates or time. */
export function readLocation(v: readonly string[], at: number): Location {
  const [accuracy, kmh, course, altitude, lon, lat, gpsTime, mcc, mnc, lac, cid, last] = v.slice(at, at + LOCATION_FIELDS);
  const attributes: Attributes = {};
  const hdop = num(accuracy);
  if (hdop !== null) attributes.hdop = hdop;
  if (mcc && mnc && lac && cid && /^\d+$/.test(mcc) && /^\d+$/.test(mnc) && /^[0-9A-Fa-f]+$/.test(lac) && /^[0-9A-Fa-f]+$/.test(cid)) {
    Object.assign(attributes, { mcc: Number(mcc), mnc: Number(mnc), lac: parseInt(lac, 16), cid: parseInt(cid, 16) });
  }
  if (last?.includes('.') && num(last) !== null) attributes.odometer = Math.round(Number(last) * 1000);
  const fixTime = time(gpsTime);
  if (!fixTime || !lon || !lat || !COORDINATE.test(lon) || !COORDINATE.test(lat)) return { fix: null, attributes };
  const latitude = Number(lat);
  const longitude = Number(lon);
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return { fix: null, attributes };
  return {
    fix: {
      fixTime,
      valid: hdop === null || hdop > 0,
      latitude,
      longitude,
      speed: (num(kmh) ?? 0) * KNOTS_PER_KMH,
      course: num(course) ?? 0,
      altitude: num(altitude),
    },
    attributes,
  };
}

/** The 6-hex device status: ignition (state byte bit 5 on, bit 4 off), inputs and outputs. */
export function readStatus(value: string | undefined, attributes: Attributes): void {
  if (!value || !/^[0-9A-Fa-f]{6}$/.test(value)) return;
  const word = parseInt(value, 16);
  const state = word >> 16;
  if (state & 0x20) attributes.ignition = true;
  else if (state & 0x10) attributes.ignition = false;
  const input = (word >> 8) & 0xff;
  const output = word & 0xff;
  Object.assign(attributes, { input, output, in1: (input & 0x02) !== 0, in2: (input & 0x04) !== 0, out1: (output & 0x01) !== 0, out2: (output & 0x02) !== 0 });
}

/** Hour meter `hhhhh:mm:ss` → Traccar's `hours` (milliseconds). */
export function hours(value: string | undefined): number | null {
  const m = value ? /^(\d+):(\d\d):(\d\d)$/.exec(value) : null;
  return m ? ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 : null;
}
