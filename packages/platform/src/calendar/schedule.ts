/**
 * When a calendar's events run, answered fast enough to ask once per position: each event is a
 * series of occurrences of one duration whose starts (UTC epoch ms) are expanded lazily, once,
 * and kept, so a question costs a binary search once the series reaches past the asked time.
 * Expanding is the slow part (ical.js takes 30-450 µs per occurrence), paid once per calendar
 * version and then only for the occurrences that come due.
 */

/** Occurrences kept per event; an event with more before the asked time counts as not running then. */
export const MAX_OCCURRENCES = 20_000;

/** One event: its occurrence starts in ascending order (undefined when there are no more), all of one duration. */
export class OccurrenceSeries {
  private readonly starts: number[] = [];
  private done = false;

  constructor(
    private readonly durationMs: number,
    private readonly nextStart: () => number | undefined,
  ) {}

  /** True when an occurrence runs at `t`: start <= t < start + duration. */
  covers(t: number): boolean {
    if (this.durationMs <= 0) return false;
    this.expandPast(t);
    const { starts } = this;
    // the last start at or before t decides: every earlier one ends no later than it does
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    const start = starts[lo - 1];
    return start !== undefined && t < start + this.durationMs;
  }

  /** Occurrences that end after `after` and no later than `upTo` (epoch ms), oldest first. */
  endingIn(after: number, upTo: number): { start: number; end: number }[] {
    if (this.durationMs <= 0) return [];
    this.expandPast(upTo);
    const out: { start: number; end: number }[] = [];
    for (const start of this.starts) {
      const end = start + this.durationMs;
      if (end > after && end <= upTo) out.push({ start, end });
    }
    return out;
  }

  /** Occurrences expanded so far (for tests and metrics). */
  get expanded(): number {
    return this.starts.length;
  }

  private expandPast(t: number): void {
    const { starts } = this;
    while (!this.done && (starts.length === 0 || starts[starts.length - 1]! <= t)) {
      const next = starts.length < MAX_OCCURRENCES ? this.nextStart() : undefined;
      if (next === undefined) {
        this.done = true;
        break;
      }
      const last = starts[starts.length - 1];
      if (last === undefined || next >= last) starts.push(next);
      else {
        // a repeated wall-clock hour can yield a start earlier than the one before: keep them sorted
        let i = starts.length - 1;
        while (i > 0 && starts[i - 1]! > next) i--;
        starts.splice(i, 0, next);
      }
    }
  }
}

/** A parsed calendar: active at a moment when one of its events (recurrences included) runs then. */
export class CalendarSchedule {
  constructor(private readonly series: readonly OccurrenceSeries[]) {}

  /** True when an event of the calendar runs at `at` (start inclusive, end exclusive), as Traccar's Calendar.checkMoment. */
  activeAt(at: Date | number): boolean {
    const t = typeof at === 'number' ? at : at.getTime();
    if (!Number.isFinite(t)) return false;
    for (const s of this.series) if (s.covers(t)) return true;
    return false;
  }

  /** The event occurrences that ended after `after` and by `upTo` (epoch ms), by end (Traccar runs scheduled reports on them). */
  endedBetween(after: number, upTo: number): { start: number; end: number }[] {
    return this.series.flatMap((s) => s.endingIn(after, upTo)).sort((a, b) => a.end - b.end || a.start - b.start);
  }

  /** Number of events (recurring series count once). */
  get events(): number {
    return this.series.length;
  }

  /** Occurrences expanded so far over all events (for tests and metrics). */
  get expanded(): number {
    let n = 0;
    for (const s of this.series) n += s.expanded;
    return n;
  }
}
