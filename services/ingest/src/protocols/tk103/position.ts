import type { Attributes, Fix } from '../result';
import { degreesMinutes, KNOTS_PER_KMH, MAX_SPEED_KNOTS, utcFromText, utcFromYmd } from '../text-time';

/**
 * TK103 position reports (facts from the TK103 protocol document and Traccar's
 * Tk103ProtocolDecoder):
 * - classic layout, after the id and the command: `<data>yymmdd A ddmm.mmmm N dddmm.mmmm E
 *   <speed km/h, up to 5 chars> hhmmss <course, 6 chars> <charge><ignition><3 hex masks><3 hex
 *   fuel> L<odometer hex, metres> ... [±ttt.t temperature]`; `<data>` is what the command puts
 *   before the date (BP05: the IMEI, BO01: the alarm digit, BQ81: `,ALARM,<code>,<n>,`, BP02:
 *   `,G,2,`);
 * - comma layout: `<id>,<command>,ddmmyy,A,ddmm.mmmmN,dddmm.mmmmE,<km/h>,hhmmss,<course>` then
 *   `altitude,satellites` (ZC/DW3x models) or `<io>,L<odometer>`.
 * A report whose date, coordinates or speed do not hold keeps its attributes with `fix` null.
 */
export interface Tk103Report {
  /** Text before the date (alarm digit or code, IMEI). */
  data: string;
  fix: Fix | null;
  /** The device time even when there is no usable fix. */
  time: Date | null;
  attributes: Attributes;
}

const CLASSIC =
  /^(.{0,40}?)(\d{6})([AV]) *(\d*)(\d\d\.\d+)([NS]) *(\d*)(\d\d\.\d+)([EW])([ \d.]{1,5})(?:\d*,)?(\d{6}),?(?:([ \d.]{6}),?([01])([01])([0-9A-Fa-f])([0-9A-Fa-f])([0-9A-Fa-f])([0-9A-Fa-f]{3})L([0-9A-Fa-f]{1,8})|(\d+\.\d+))?.*?([+-]\d{3}\.\d)?$/s;
const COMMA_LAT = /^(\d*)(\d\d\.\d+)([NS])$/;
const COMMA_LON = /^(\d*)(\d\d\.\d+)([EW])$/;
const IO = /^([01])([01])([0-9A-Fa-f])([0-9A-Fa-f])([0-9A-Fa-f])([0-9A-Fa-f]{3})$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

function fixOf(
  time: Date | null,
  validity: string,
  latitude: number | null,
  longitude: number | null,
  kmh: number,
  course: number,
): Fix | null {
  const speed = kmh * KNOTS_PER_KMH;
  if (time === null || latitude === null || longitude === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  if (latitude === 0 && longitude === 0) return null;
  if (!Number.isFinite(speed) || speed < 0 || speed > MAX_SPEED_KNOTS || !Number.isFinite(course) || course < 0 || course > 360)
    return null;
  return { fixTime: time, valid: validity === 'A', latitude, longitude, speed, course };
}

/** charge, ignition, mask1 (in2, panic, out2, blocked), mask2 (hs3..hs1, door), mask3 (ls3..ls1), fuel; Traccar reports the flags of masks 2 and 3 only when set. */
function ioAttributes(io: RegExpExecArray, odometerHex: string | undefined): Attributes {
  const a: Attributes = { charge: io[1] === '0', ignition: io[2] === '1' };
  const mask1 = parseInt(io[3]!, 16);
  const mask2 = parseInt(io[4]!, 16);
  const mask3 = parseInt(io[5]!, 16);
  a.in2 = (mask1 & 1) !== 0;
  a.panic = (mask1 & 2) !== 0;
  a.out2 = (mask1 & 4) !== 0;
  if (mask1 & 8) a.blocked = true;
  for (let i = 0; i < 3; i++) if (mask2 & (1 << i)) a[`hs${3 - i}`] = true;
  if (mask2 & 8) a.door = true;
  for (let i = 1; i <= 3; i++) if (mask3 & (1 << i)) a[`ls${4 - i}`] = true;
  a.fuel = parseInt(io[6]!, 16);
  if (odometerHex !== undefined) a.odometer = parseInt(odometerHex, 16);
  return a;
}

export function decodeClassic(body: string): Tk103Report | null {
  const m = CLASSIC.exec(body);
  if (!m) return null;
  const g = (i: number): string => m[i] ?? '';
  const time = utcFromYmd(g(2), g(11));
  const courseText = (g(12) || g(20)).trim();
  const course = courseText === '' ? 0 : Number(courseText);
  const fix = fixOf(
    time,
    g(3),
    degreesMinutes(g(4), g(5), g(6), 'S'),
    degreesMinutes(g(7), g(8), g(9), 'W'),
    Number(g(10).trim() || '0'),
    course,
  );
  let attributes: Attributes = {};
  if (g(13)) {
    const io = IO.exec(`${g(13)}${g(14)}${g(15)}${g(16)}${g(17)}${g(18)}`)!;
    attributes = ioAttributes(io, g(19));
  }
  if (g(21)) attributes.temp1 = Number(g(21));
  return { data: g(1), fix, time, attributes };
}

/** Comma-layout fields after the command. */
export function decodeComma(f: string[]): Tk103Report | null {
  const lat = COMMA_LAT.exec(f[2] ?? '');
  const lon = COMMA_LON.exec(f[3] ?? '');
  if (!lat || !lon || !/^[AV]$/.test(f[1] ?? '') || !DECIMAL.test(f[4] ?? '') || !/^\d{6}$/.test(f[5] ?? '')) return null;
  const time = utcFromText(f[0] ?? '', f[5]!);
  const course = f[6] === undefined || f[6] === '' ? 0 : Number(f[6]);
  const fix = fixOf(
    time,
    f[1]!,
    degreesMinutes(lat[1]!, lat[2]!, lat[3]!, 'S'),
    degreesMinutes(lon[1]!, lon[2]!, lon[3]!, 'W'),
    Number(f[4]),
    course,
  );
  let attributes: Attributes = {};
  const io = IO.exec(f[7] ?? '');
  const odometer = /^L([0-9A-Fa-f]{1,8})$/.exec(f[8] ?? '');
  if (io) attributes = ioAttributes(io, odometer?.[1]);
  else if (odometer) attributes.odometer = parseInt(odometer[1]!, 16);
  else if (DECIMAL.test(f[7] ?? '') && /^\d+$/.test(f[8] ?? '')) {
    attributes.altitude = Number(f[7]);
    attributes.sat = Number(f[8]);
  }
  return { data: '', fix, time, attributes };
}
