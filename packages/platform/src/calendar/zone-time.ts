/**
 * Wall-clock times in IANA time zones (Africa/Nairobi, Europe/London ...) to UTC, through the
 * runtime's own time-zone database (Intl). iCalendar documents often name a TZID without the
 * VTIMEZONE block that would define it; ical.js then reads such times as floating, that is in the
 * process's local zone, which would shift every event by the server's offset.
 */

export interface WallClock {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatter(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null;
    }
    formatters.set(zone, f);
  }
  return f;
}

/** True when the runtime knows `zone` as an IANA time zone. */
export function isTimeZone(zone: string): boolean {
  return formatter(zone) !== null;
}

/** The zone's offset from UTC at the instant `utcMs`, in milliseconds (east positive). */
function offsetAt(f: Intl.DateTimeFormat, utcMs: number): number {
  const p: Record<string, number> = {};
  for (const part of f.formatToParts(utcMs)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const local = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour! % 24, p.minute!, p.second!);
  return local - Math.floor(utcMs / 1000) * 1000;
}

/**
 * The UTC instant (epoch ms) of a wall-clock time in `zone`. A time skipped by a daylight-saving
 * jump is read with the offset before the jump (02:30 on a spring-forward night becomes 03:30);
 * a repeated time takes its first occurrence. Throws RangeError for a zone the runtime lacks.
 */
export function wallClockToUtc(w: WallClock, zone: string): number {
  const f = formatter(zone);
  if (!f) throw new RangeError(`unknown time zone ${zone}`);
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const first = offsetAt(f, wall - offsetAt(f, wall));
  const candidate = wall - first;
  const second = offsetAt(f, candidate);
  if (second === first) {
    // in a repeated hour both offsets fit: the earlier instant (larger offset) is the first one
    const earlier = offsetAt(f, candidate - 3600_000);
    return earlier > first && offsetAt(f, wall - earlier) === earlier ? wall - earlier : candidate;
  }
  // in a skipped hour neither fits: keep the offset in force before the jump
  return wall - Math.min(first, second);
}
