/**
 * Date, time and speed helpers shared by the text protocols (H02, TK103, GPS103): two-digit-year
 * dates as the devices send them, checked for range and for being implausibly far ahead.
 */

/** Fix times more than 25 h ahead of the server clock are corrupt (the range positions.v1 consumers accept). */
const FUTURE_SLACK_MS = 25 * 3600 * 1000;

/** UTC date from two-digit-year parts; null when a part is out of range or the time is implausibly far ahead. */
export function utcFromParts(year2: number, month: number, day: number, hour: number, minute: number, second: number): Date | null {
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(Date.UTC(2000 + year2, month - 1, day, hour, minute, second));
  return date.getTime() > Date.now() + FUTURE_SLACK_MS ? null : date;
}

/** `ddmmyy` + `hhmmss` text → UTC date, null when either is missing or out of range. */
export function utcFromText(ddmmyy: string, hhmmss: string): Date | null {
  const d = /^(\d\d)(\d\d)(\d\d)$/.exec(ddmmyy);
  const t = /^(\d\d)(\d\d)(\d\d)$/.exec(hhmmss);
  if (!d || !t) return null;
  return utcFromParts(Number(d[3]), Number(d[2]), Number(d[1]), Number(t[1]), Number(t[2]), Number(t[3]));
}

/** Maximum speed positions.v1 accepts, knots. */
export const MAX_SPEED_KNOTS = 869;

/** Knots per km/h (positions.v1 speeds are knots, as Traccar's). */
export const KNOTS_PER_KMH = 1 / 1.852;

/** `yymmdd` + `hhmmss` text → UTC date (the order of TK103's classic layout). */
export function utcFromYmd(yymmdd: string, hhmmss: string): Date | null {
  const d = /^(\d\d)(\d\d)(\d\d)$/.exec(yymmdd);
  const t = /^(\d\d)(\d\d)(\d\d)$/.exec(hhmmss);
  if (!d || !t) return null;
  return utcFromParts(Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2]), Number(t[3]));
}

/** `ddmm.mmmm` split into whole degrees (any digits, maybe none) and minutes; null when the minutes are 60 or more. */
export function degreesMinutes(degrees: string, minutes: string, hemisphere: string, negative: string): number | null {
  const m = Number(minutes);
  const d = Number(degrees || '0');
  if (!Number.isFinite(m) || !Number.isFinite(d) || m >= 60) return null;
  const value = d + m / 60;
  return hemisphere === negative ? -value : value;
}
