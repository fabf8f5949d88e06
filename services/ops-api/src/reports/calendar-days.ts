/**
 * Calendar-day boundaries in an IANA time zone, for the daily summary (Traccar splits per day in
 * the user's time zone). Uses the runtime's time-zone data through Intl; handles DST shifts.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall-clock fields of instant `ms` in `tz`. */
function wallClock(ms: number, tz: string): { year: number; month: number; day: number; hour: number; minute: number; second: number } {
  const parts: Record<string, number> = {};
  for (const p of formatter(tz).formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/** UTC offset of `tz` at instant `ms`, milliseconds (east positive). */
export function offsetAt(ms: number, tz: string): number {
  const w = wallClock(ms, tz);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/** The first local midnight in `tz` strictly after instant `ms`. */
export function nextMidnight(ms: number, tz: string): number {
  const w = wallClock(ms, tz);
  const midnightWall = Date.UTC(w.year, w.month - 1, w.day + 1);
  let guess = midnightWall - offsetAt(ms, tz);
  guess = midnightWall - offsetAt(guess, tz); // the offset may differ after a DST change
  return guess > ms ? guess : nextMidnight(ms + 3_600_000, tz);
}

/** The local midnights strictly inside (from, to], in order. */
export function dayBoundaries(from: number, to: number, tz: string): number[] {
  const out: number[] = [];
  for (let b = nextMidnight(from, tz); b <= to; b = nextMidnight(b, tz)) out.push(b);
  return out;
}
