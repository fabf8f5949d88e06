import ICAL from 'ical.js';
import { CalendarSchedule, OccurrenceSeries } from './schedule';
import { isTimeZone, wallClockToUtc } from './zone-time';

/**
 * Traccar calendars: base64 iCalendar documents parsed with ical.js into a CalendarSchedule.
 *
 * Times: UTC ('Z') as written; a TZID defined by a VTIMEZONE of the document through that
 * definition; a TZID without one (common in hand-written and exported files) as the IANA zone of
 * that name; floating times and all-day dates in the calendar's X-WR-TIMEZONE, else UTC (never in
 * the server's own zone). A TZID that is neither defined nor an IANA zone is refused.
 * Recurrences: RRULE, RDATE and EXDATE through ical.js; a VEVENT with a RECURRENCE-ID replaces the
 * occurrence it names (STATUS:CANCELLED removes it); a cancelled event never runs.
 */

const DAY_MS = 86_400_000;

function decode(base64: string): ICAL.Component {
  const text = Buffer.from(base64, 'base64').toString('utf8');
  let jcal: unknown;
  try {
    jcal = ICAL.parse(text);
  } catch (err) {
    throw new Error(`not an iCalendar document (${err instanceof Error ? err.message : String(err)})`);
  }
  const root = new ICAL.Component(Array.isArray(jcal) && typeof jcal[0] === 'string' ? (jcal as never) : (jcal as never[])[0]!);
  if (root.name !== 'vcalendar') throw new Error(`expected a VCALENDAR, found ${root.name.toUpperCase()}`);
  return root;
}

/** Converts the times of one calendar to UTC epoch ms, with the calendar's default zone for floating times. */
function timeReader(root: ICAL.Component) {
  const declared = root.getFirstPropertyValue('x-wr-timezone');
  const defaultZone = typeof declared === 'string' && isTimeZone(declared) ? declared : 'UTC';
  const definedByDocument = (zone: ICAL.Timezone | undefined): boolean =>
    !!zone && zone !== ICAL.Timezone.localTimezone && zone.tzid !== 'floating' && !!zone.component;

  /** The zone to read a property's floating value in, or null when ical.js already knows its zone. */
  function zoneOf(prop: ICAL.Property, time: ICAL.Time): string | null {
    if (time.zone === ICAL.Timezone.utcTimezone || definedByDocument(time.zone)) return null;
    const tzid = prop.getParameter('tzid');
    const name = typeof tzid === 'string' && tzid ? tzid : defaultZone;
    if (!isTimeZone(name)) throw new Error(`TZID ${name} is neither defined by a VTIMEZONE of the calendar nor a known time zone`);
    return name;
  }

  function utc(time: ICAL.Time, zone: string | null): number {
    if (zone === null) return time.toUnixTime() * 1000;
    return wallClockToUtc(
      { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second },
      zone,
    );
  }

  /** The property's first value as UTC ms and the zone its recurrences are read in. */
  function read(component: ICAL.Component, name: string): { ms: number; zone: string | null; time: ICAL.Time } | undefined {
    const prop = component.getFirstProperty(name);
    const time = prop?.getFirstValue();
    if (!prop || !(time instanceof ICAL.Time)) return undefined;
    const zone = zoneOf(prop, time);
    return { ms: utc(time, zone), zone, time };
  }

  return { read, utc };
}

const cancelled = (c: ICAL.Component): boolean => String(c.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';

/** Decodes and parses a base64 iCalendar document; throws with a readable reason when it is not a usable one. */
export function parseCalendar(base64: string): CalendarSchedule {
  const root = decode(base64);
  const vevents = root.getAllSubcomponents('vevent');
  if (!vevents.length) throw new Error('the calendar has no VEVENT');
  for (const e of vevents) if (!e.hasProperty('dtstart')) throw new Error('a VEVENT has no DTSTART');
  const { read, utc } = timeReader(root);

  // occurrences replaced or cancelled by a RECURRENCE-ID, per UID
  const replaced = new Map<string, Set<number>>();
  const series: OccurrenceSeries[] = [];
  const masters: ICAL.Component[] = [];
  for (const c of vevents) {
    const recurrenceId = read(c, 'recurrence-id');
    if (!recurrenceId) {
      masters.push(c);
      continue;
    }
    const uid = String(c.getFirstPropertyValue('uid') ?? '');
    replaced.set(uid, (replaced.get(uid) ?? new Set<number>()).add(recurrenceId.ms));
    if (!cancelled(c)) series.push(single(c));
  }
  for (const c of masters) {
    if (cancelled(c)) continue;
    const event = new ICAL.Event(c);
    if (!event.isRecurring()) {
      series.push(single(c));
      continue;
    }
    const start = read(c, 'dtstart')!;
    const skip = replaced.get(event.uid ?? '') ?? new Set<number>();
    const it = event.iterator();
    series.push(
      new OccurrenceSeries(durationOf(c, event), () => {
        for (let next = it.next(); next; next = it.next()) {
          const ms = utc(next, start.zone);
          if (!skip.has(ms)) return ms;
        }
        return undefined;
      }),
    );
  }
  return new CalendarSchedule(series);

  /** Exact duration: DTEND − DTSTART, or DURATION, or a day for an all-day event with neither (RFC 5545 3.6.1). */
  function durationOf(c: ICAL.Component, event: ICAL.Event): number {
    const start = read(c, 'dtstart')!;
    const end = read(c, 'dtend');
    let ms: number;
    if (end) ms = end.ms - start.ms;
    else if (c.hasProperty('duration')) ms = event.duration.toSeconds() * 1000;
    else ms = start.time.isDate ? DAY_MS : 0;
    if (ms < 0) throw new Error('a VEVENT ends before it starts');
    return ms;
  }

  function single(c: ICAL.Component): OccurrenceSeries {
    const start = read(c, 'dtstart')!.ms;
    let given = false;
    return new OccurrenceSeries(durationOf(c, new ICAL.Event(c)), () => {
      if (given) return undefined;
      given = true;
      return start;
    });
  }
}

/** True when one of the calendar's events (recurrences included) is running at `at` (Traccar's Calendar.checkMoment). */
export function calendarActiveAt(calendar: CalendarSchedule, at: Date): boolean {
  return calendar.activeAt(at);
}
