import type { Attributes, Fix } from '../result';
import { degreesMinutes, MAX_SPEED_KNOTS } from '../text-time';

/**
 * The regular GPS103 report (facts from the Coban GPRS protocol notes and Traccar's
 * Gps103ProtocolDecoder):
 * `imei:<id>,<keyword>,<local yymmddhhmm[ss]>,<rfid or phone>,F,<utc hhmmss.sss>,A,<lat ddmm.mmmm>,N,
 *  <lon dddmm.mmmm>,E,<speed knots>,<course>,<altitude>,<acc 0/1>,<door 0/1>,<fuel1 %>,<fuel2 %>,<temp>;`
 * (hemispheres may also come before the numbers). `L` instead of `F` means no GPS:
 * `L,,,<lac hex>,,<cid hex>,,,`. The date is local: the UTC fix time is the local date/time
 * shifted by the difference between the local hh:mm and the UTC hh:mm (normalised to ±12 h).
 */
export interface RegularReport {
  fix: Fix;
  attributes: Attributes;
}

const FUTURE_SLACK_MS = 25 * 3600 * 1000;

function plausible(ms: number): Date | null {
  return Number.isNaN(ms) || ms > Date.now() + FUTURE_SLACK_MS ? null : new Date(ms);
}

function coordinate(value: string, hemisphere: string, negative: string): number | null {
  const m = /^(\d+)(\d\d\.\d+)$/.exec(value);
  return m ? degreesMinutes(m[1]!, m[2]!, hemisphere, negative) : null;
}

/** Local date/time field + UTC time field → UTC fix time (Traccar's time-zone rule). */
function fixTime(local: string, utc: string): Date | null {
  const l = /^(\d\d)\/?(\d\d)\/?(\d\d) ?(\d\d):?(\d\d)(?:\d\d)?$/.exec(local);
  if (!l) return null;
  const [year, month, day, localHour, localMinute] = l.slice(1).map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > 31 || localHour > 23 || localMinute > 59) return null;
  const u = /^(\d\d)(\d\d)(\d\d)(?:\.\d+)?$/.exec(utc);
  const second = u ? Number(u[3]) : 0;
  if (second > 59) return null;
  let ms = Date.UTC(2000 + year, month - 1, day, localHour, localMinute, second);
  if (u) {
    const utcHour = Number(u[1]);
    const utcMinute = Number(u[2]);
    if (utcHour > 23 || utcMinute > 59) return null;
    let delta = (localHour - utcHour) * 60 + (localMinute - utcMinute);
    if (delta <= -12 * 60) delta += 24 * 60;
    else if (delta > 12 * 60) delta -= 24 * 60;
    ms -= delta * 60_000;
  }
  return plausible(ms);
}

function numberOrNull(value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const n = Number(value.replace('%', ''));
  return Number.isFinite(n) ? n : null;
}

/** Fields after `F,`: utc time, validity, lat/lon with hemispheres before or after, speed, course, altitude, acc, door, fuel 1/2, temperature. */
export function decodeFix(local: string, f: string[], keyword: string): RegularReport | null {
  let i = 0;
  const next = (): string => (f[i++] ?? '').trim();
  const peek = (): string => (f[i] ?? '').trim();
  const utc = next();
  const validity = next();
  if (validity !== 'A' && validity !== 'V') return null;
  let latHem = /^[NS]$/.test(peek()) ? next() : '';
  const lat = next();
  if (/^[NS]$/.test(peek())) latHem = next();
  let lonHem = /^[EW]$/.test(peek()) ? next() : '';
  const lon = next();
  if (/^[EW]?$/.test(peek())) lonHem = next() || lonHem;
  const latitude = coordinate(lat, latHem, 'S');
  const longitude = coordinate(lon, lonHem, 'W');
  const time = fixTime(local, utc);
  if (latitude === null || longitude === null || time === null || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  const speed = numberOrNull(next()) ?? 0;
  const course = numberOrNull(next()) ?? 0;
  if (speed < 0 || speed > MAX_SPEED_KNOTS || course < 0 || course > 360) return null;
  const altitude = numberOrNull(next());
  const acc = next();
  const door = next();
  const fuel1 = next();
  const fuel2 = next();
  const temperature = numberOrNull(next());
  const a: Attributes = {};
  if (altitude !== null) a.altitude = altitude;
  if (acc === '0' || acc === '1') a.ignition = acc === '1';
  if (door === '0' || door === '1') a.door = door === '1';
  if (/^\d+(\.\d+)?%?$/.test(fuel1)) a.fuel1 = numberOrNull(fuel1);
  // an integer here is not a fuel level (trackers with OBD put the odometer there); Traccar skips it too
  if (/^\d+\.\d+%?$/.test(fuel2)) a.fuel2 = numberOrNull(fuel2);
  else if (keyword === 'DTC' && /^[PCBU][0-9A-F]{4}$/.test(fuel2)) a.dtcs = fuel2;
  if (temperature !== null) a.temp1 = temperature;
  return { fix: { fixTime: time, valid: validity === 'A', latitude, longitude, speed, course }, attributes: a };
}

/** Fields after `L,`: `,,<lac hex>,,<cid hex>,,,` (the cell's mcc/mnc are not sent). */
export function decodeNoGps(f: string[]): Attributes {
  const lac = f[2] ?? '';
  const cid = f[4] ?? '';
  if (!/^[0-9A-Fa-f]{1,8}$/.test(lac) || !/^[0-9A-Fa-f]{1,8}$/.test(cid)) return {};
  return { lac: parseInt(lac, 16), cid: parseInt(cid, 16) };
}
