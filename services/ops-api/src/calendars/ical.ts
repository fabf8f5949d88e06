import ICAL from 'ical.js';

/** Decodes and parses a base64 iCalendar document; throws with a readable reason when it is not one. */
export function parseCalendar(base64: string): ICAL.Component {
  const text = Buffer.from(base64, 'base64').toString('utf8');
  let jcal: unknown;
  try {
    jcal = ICAL.parse(text);
  } catch (err) {
    throw new Error(`not an iCalendar document (${err instanceof Error ? err.message : String(err)})`);
  }
  const root = new ICAL.Component(Array.isArray(jcal) && typeof jcal[0] === 'string' ? (jcal as never) : (jcal as never[])[0]!);
  if (root.name !== 'vcalendar') throw new Error(`expected a VCALENDAR, found ${root.name.toUpperCase()}`);
  const events = root.getAllSubcomponents('vevent');
  if (!events.length) throw new Error('the calendar has no VEVENT');
  for (const e of events) if (!e.hasProperty('dtstart')) throw new Error('a VEVENT has no DTSTART');
  return root;
}

const MAX_OCCURRENCES = 20000;

/** True when one of the calendar's events (recurrences included) is running at `at` (Traccar's Calendar.checkMoment). */
export function calendarActiveAt(calendar: ICAL.Component, at: Date): boolean {
  const t = at.getTime();
  for (const v of calendar.getAllSubcomponents('vevent')) {
    const event = new ICAL.Event(v);
    const durationMs = event.duration.toSeconds() * 1000;
    if (!event.isRecurring()) {
      const start = event.startDate.toJSDate().getTime();
      if (start <= t && t < start + durationMs) return true;
      continue;
    }
    const it = event.iterator();
    for (let i = 0, next = it.next(); next && i < MAX_OCCURRENCES; i++, next = it.next()) {
      const start = next.toJSDate().getTime();
      if (start > t) break;
      if (t < start + durationMs) return true;
    }
  }
  return false;
}
