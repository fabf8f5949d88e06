import { cacheKeys, counter, gauge, PublishedList, type Cache, type Logger } from '@corridor/platform';
import { CalendarDefinitions, type CalendarDefinition } from '@corridor/platform/calendar/definition';
import { parseCalendar } from '@corridor/platform/calendar/ical';
import type { CalendarSchedule } from '@corridor/platform/calendar/schedule';

const calendarsLoaded = gauge('geofence_calendars_loaded', 'Calendars the geofence evaluator holds (published by ops-api)');
const calendarProblems = counter(
  'geofence_calendar_problems_total',
  'Calendar problems: the published list unreadable or missing (load), a calendar that does not parse (parse), a fence checked against a calendar that is not published (unknown; the fence counts as active)',
  ['kind'],
);

interface Entry {
  data: string;
  /** null: the data does not parse here (the calendar counts as unknown) */
  schedule: CalendarSchedule | null;
}

/**
 * The calendars a geofence's calendarId names: the list ops-api publishes under
 * cacheKeys.calendars(), re-read at most every reloadMs (so a calendar change takes effect within
 * that, without a restart) and parsed once per change of a calendar's data; an unchanged calendar
 * keeps its parsed schedule and the occurrences already expanded.
 *
 * A fence whose calendar is unknown (deleted in ops-api, never existed, or not parseable here)
 * counts as ACTIVE, as in Traccar, where a calendar that cannot be found means no restriction and
 * deleting a calendar clears the geofences' calendarId. Each such check is counted
 * (geofence_calendar_problems_total{kind="unknown"}) and logged once per calendar id.
 * A missing or malformed list keeps the calendars last read (the cache lost the key, or a writer
 * of another version), rather than turning every calendar fence on at once.
 */
export class CalendarGate {
  private entries = new Map<number, Entry>();
  private readonly warned = new Set<number>();
  private readonly source: PublishedList<CalendarDefinition>;

  constructor(private readonly deps: { cache: Cache; logger: Logger; reloadMs?: number; now?: () => number }) {
    this.source = new PublishedList({
      ...deps,
      key: cacheKeys.calendars(),
      what: 'calendars',
      schema: CalendarDefinitions,
      whenMissing: 'keep',
      onProblem: () => calendarProblems.inc({ kind: 'load' }),
      apply: (defs) => {
        this.entries = this.rebuild(defs);
        calendarsLoaded.set(this.entries.size);
        deps.logger.debug({ calendars: this.entries.size }, 'calendars loaded');
      },
    });
  }

  /** Re-reads the calendars when the last read is older than reloadMs; a cache failure keeps the current ones. */
  refresh(): Promise<void> {
    return this.source.refresh();
  }

  /** How many calendars are held (parseable or not). */
  get size(): number {
    return this.entries.size;
  }

  /** True when a fence bound to `calendarId` is active at `t` (epoch ms): one of the calendar's events runs then, or the calendar is unknown. */
  activeAt(calendarId: number, t: number): boolean {
    const schedule = this.entries.get(calendarId)?.schedule;
    if (schedule) return schedule.activeAt(t);
    calendarProblems.inc({ kind: 'unknown' });
    if (!this.warned.has(calendarId)) {
      this.warned.add(calendarId);
      this.deps.logger.warn(
        { calendarId },
        'a geofence names a calendar that is not published or does not parse; the fence counts as active',
      );
    }
    return true;
  }

  private rebuild(defs: readonly CalendarDefinition[]): Map<number, Entry> {
    const next = new Map<number, Entry>();
    for (const def of defs) {
      const previous = this.entries.get(def.id);
      if (previous && previous.data === def.data) {
        next.set(def.id, previous);
        continue;
      }
      let schedule: CalendarSchedule | null = null;
      try {
        schedule = parseCalendar(def.data);
        this.warned.delete(def.id);
      } catch (err) {
        calendarProblems.inc({ kind: 'parse' });
        this.deps.logger.warn(
          { calendarId: def.id, reason: (err as Error).message },
          'calendar does not parse; fences bound to it count as active',
        );
      }
      next.set(def.id, { data: def.data, schedule });
    }
    return next;
  }
}
