import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarActiveAt, parseCalendar } from './ical';

const b64 = (s: string) => Buffer.from(s.replace(/\n/g, '\r\n')).toString('base64');
const calendar = (body: string, head = '') =>
  b64(`BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//corridor//test//EN\n${head}${body}END:VCALENDAR\n`);
const active = (data: string) => {
  const schedule = parseCalendar(data);
  return (iso: string) => calendarActiveAt(schedule, new Date(iso));
};

const weekdayShift = calendar(`BEGIN:VEVENT
UID:shift
DTSTART:20260105T050000Z
DTEND:20260105T150000Z
RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR
END:VEVENT
BEGIN:VEVENT
UID:closure
DTSTART:20260314T000000Z
DTEND:20260315T000000Z
END:VEVENT
`);

/** Mon-Fri 08:00-17:00 in Nairobi, the TZID named without a VTIMEZONE (as many exports do). */
const nairobiOffice = calendar(`BEGIN:VEVENT
UID:office
DTSTART;TZID=Africa/Nairobi:20260105T080000
DTEND;TZID=Africa/Nairobi:20260105T170000
RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR
END:VEVENT
`);

describe('iCalendar data', () => {
  // the server's own zone must not matter: run these in a zone far from the calendars'
  const tz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'America/Los_Angeles';
  });
  afterAll(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it('parses a calendar and tells when its events run, recurrences included', () => {
    const at = active(weekdayShift);
    expect(at('2026-05-11T12:00:00Z')).toBe(true); // Monday noon
    expect(at('2026-05-11T15:00:00Z')).toBe(false); // end is exclusive
    expect(at('2026-05-11T05:00:00Z')).toBe(true); // start is inclusive
    expect(at('2026-05-09T12:00:00Z')).toBe(false); // Saturday
    expect(at('2026-01-02T12:00:00Z')).toBe(false); // before the first occurrence
    expect(at('2026-03-14T23:59:00Z')).toBe(true); // the one-off Saturday event
  });

  it('reads a TZID without a VTIMEZONE as the IANA zone of that name', () => {
    const at = active(nairobiOffice);
    expect(at('2026-05-11T04:59:59Z')).toBe(false); // Monday 07:59:59 in Nairobi
    expect(at('2026-05-11T05:00:00Z')).toBe(true); // 08:00
    expect(at('2026-05-11T13:59:59Z')).toBe(true); // 16:59:59
    expect(at('2026-05-11T14:00:00Z')).toBe(false); // 17:00
    expect(at('2026-05-15T10:00:00Z')).toBe(true); // Friday
    expect(at('2026-05-16T06:00:00Z')).toBe(false); // Saturday 09:00
    expect(at('2026-05-17T06:00:00Z')).toBe(false); // Sunday 09:00
  });

  it("follows a zone's daylight-saving changes: 09:00 stays 09:00 local", () => {
    const at = active(
      calendar(`BEGIN:VEVENT
UID:ny
DTSTART;TZID=America/New_York:20260302T090000
DURATION:PT1H
RRULE:FREQ=DAILY
END:VEVENT
`),
    );
    expect(at('2026-03-06T14:30:00Z')).toBe(true); // 09:30 EST
    expect(at('2026-03-06T13:30:00Z')).toBe(false);
    expect(at('2026-03-09T13:30:00Z')).toBe(true); // 09:30 EDT
    expect(at('2026-03-09T14:30:00Z')).toBe(false);
  });

  it('uses a VTIMEZONE the document defines, even under a name no runtime knows', () => {
    const at = active(
      calendar(`BEGIN:VTIMEZONE
TZID:Corridor Standard Time
BEGIN:STANDARD
DTSTART:19700101T000000
TZOFFSETFROM:+0300
TZOFFSETTO:+0300
TZNAME:CST
END:STANDARD
END:VTIMEZONE
BEGIN:VEVENT
UID:c
DTSTART;TZID=Corridor Standard Time:20260105T080000
DTEND;TZID=Corridor Standard Time:20260105T170000
RRULE:FREQ=WEEKLY;BYDAY=MO
END:VEVENT
`),
    );
    expect(at('2026-05-11T05:00:00Z')).toBe(true);
    expect(at('2026-05-11T04:59:00Z')).toBe(false);
    expect(at('2026-05-11T14:00:00Z')).toBe(false);
  });

  it('reads floating times and all-day dates in X-WR-TIMEZONE, else in UTC', () => {
    const floating = `BEGIN:VEVENT
UID:f
DTSTART:20260105T080000
DTEND:20260105T170000
RRULE:FREQ=DAILY
END:VEVENT
`;
    expect(active(calendar(floating, 'X-WR-TIMEZONE:Africa/Dar_es_Salaam\n'))('2026-05-11T05:30:00Z')).toBe(true);
    expect(active(calendar(floating))('2026-05-11T05:30:00Z')).toBe(false);
    expect(active(calendar(floating))('2026-05-11T08:30:00Z')).toBe(true);
    const holiday = active(
      calendar(
        `BEGIN:VEVENT
UID:h
DTSTART;VALUE=DATE:20261212
END:VEVENT
`,
        'X-WR-TIMEZONE:Africa/Nairobi\n',
      ),
    );
    expect(holiday('2026-12-11T21:00:00Z')).toBe(true); // Jamhuri Day starts at midnight in Nairobi
    expect(holiday('2026-12-12T20:59:59Z')).toBe(true);
    expect(holiday('2026-12-12T21:00:00Z')).toBe(false);
  });

  it('honours UNTIL, COUNT, EXDATE, moved and cancelled occurrences, and cancelled events', () => {
    const at = active(
      calendar(`BEGIN:VEVENT
UID:w
DTSTART:20260105T050000Z
DTEND:20260105T150000Z
RRULE:FREQ=DAILY;UNTIL=20260131T235959Z
EXDATE:20260107T050000Z
END:VEVENT
BEGIN:VEVENT
UID:w
RECURRENCE-ID:20260108T050000Z
DTSTART:20260110T180000Z
DTEND:20260110T190000Z
END:VEVENT
BEGIN:VEVENT
UID:w
RECURRENCE-ID:20260109T050000Z
STATUS:CANCELLED
DTSTART:20260109T050000Z
END:VEVENT
BEGIN:VEVENT
UID:c
DTSTART:20260201T000000Z
RRULE:FREQ=DAILY;COUNT=2
DURATION:PT1H
END:VEVENT
BEGIN:VEVENT
UID:x
STATUS:CANCELLED
DTSTART:20260301T000000Z
DTEND:20260302T000000Z
END:VEVENT
`),
    );
    expect(at('2026-01-06T10:00:00Z')).toBe(true);
    expect(at('2026-01-07T10:00:00Z')).toBe(false); // EXDATE
    expect(at('2026-01-08T10:00:00Z')).toBe(false); // moved away ...
    expect(at('2026-01-10T18:30:00Z')).toBe(true); // ... to here
    expect(at('2026-01-09T10:00:00Z')).toBe(false); // cancelled occurrence
    expect(at('2026-01-31T10:00:00Z')).toBe(true);
    expect(at('2026-02-01T10:00:00Z')).toBe(false); // after UNTIL
    expect(at('2026-02-02T00:30:00Z')).toBe(true);
    expect(at('2026-02-03T00:30:00Z')).toBe(false); // after COUNT
    expect(at('2026-03-01T12:00:00Z')).toBe(false); // cancelled event
  });

  it('answers for a calendar that began years ago, and keeps answering without expanding again', () => {
    const schedule = parseCalendar(
      calendar(`BEGIN:VEVENT
UID:old
DTSTART;TZID=Africa/Nairobi:20180101T080000
DTEND;TZID=Africa/Nairobi:20180101T170000
RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR
END:VEVENT
`),
    );
    expect(schedule.activeAt(Date.parse('2026-05-11T06:00:00Z'))).toBe(true);
    const expandedOnce = schedule.expanded; // the weekdays from 2018 up to that Monday, expanded once
    expect(expandedOnce).toBeGreaterThan(2000);
    let n = 0;
    for (let t = Date.parse('2026-05-11T00:00:00Z'); t < Date.parse('2026-05-12T00:00:00Z'); t += 10_000) n += schedule.activeAt(t) ? 1 : 0;
    expect(n).toBe(9 * 360); // 9 hours of 10 s steps
    // 8,640 questions later: a binary search each, only the next day's occurrence expanded, never 2018 again
    expect(schedule.expanded - expandedOnce).toBeLessThanOrEqual(1);
  });

  it('rejects what is not a calendar with events', () => {
    expect(() => parseCalendar(Buffer.from('hello').toString('base64'))).toThrow(/not an iCalendar/);
    expect(() => parseCalendar(b64('BEGIN:VCARD\nVERSION:4.0\nEND:VCARD\n'))).toThrow(/VCALENDAR/);
    expect(() => parseCalendar(b64('BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n'))).toThrow(/no VEVENT/);
    expect(() => parseCalendar(b64('BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nEND:VEVENT\nEND:VCALENDAR\n'))).toThrow(/DTSTART/);
    expect(() =>
      parseCalendar(calendar('BEGIN:VEVENT\nUID:x\nDTSTART;TZID=E. Africa Standard Time:20260105T080000\nEND:VEVENT\n')),
    ).toThrow(/TZID E. Africa Standard Time/);
    expect(() => parseCalendar(calendar('BEGIN:VEVENT\nUID:x\nDTSTART:20260105T080000Z\nDTEND:20260105T070000Z\nEND:VEVENT\n'))).toThrow(
      /ends before it starts/,
    );
  });
});
