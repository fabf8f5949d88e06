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
