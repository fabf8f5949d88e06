import { describe, expect, it } from 'vitest';
import { calendarActiveAt, parseCalendar } from './ical';

const b64 = (s: string) => Buffer.from(s.replace(/\n/g, '\r\n')).toString('base64');
const weekdayShift = b64(`BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//corridor//test//EN
BEGIN:VEVENT
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
END:VCALENDAR
`);

describe('iCalendar data', () => {
  it('parses a calendar and tells when its events run, recurrences included', () => {
    const cal = parseCalendar(weekdayShift);
    expect(calendarActiveAt(cal, new Date('2026-05-11T12:00:00Z'))).toBe(true); // Monday noon
    expect(calendarActiveAt(cal, new Date('2026-05-11T15:00:00Z'))).toBe(false); // end is exclusive
    expect(calendarActiveAt(cal, new Date('2026-05-09T12:00:00Z'))).toBe(false); // Saturday
    expect(calendarActiveAt(cal, new Date('2026-01-02T12:00:00Z'))).toBe(false); // before the first occurrence
    expect(calendarActiveAt(cal, new Date('2026-03-14T23:59:00Z'))).toBe(true); // the one-off Saturday event
  });

  it('rejects what is not a calendar with events', () => {
    expect(() => parseCalendar(Buffer.from('hello').toString('base64'))).toThrow(/not an iCalendar/);
    expect(() => parseCalendar(b64('BEGIN:VCARD\nVERSION:4.0\nEND:VCARD\n'))).toThrow(/VCALENDAR/);
    expect(() => parseCalendar(b64('BEGIN:VCALENDAR\nVERSION:2.0\nEND:VCALENDAR\n'))).toThrow(/no VEVENT/);
    expect(() => parseCalendar(b64('BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nEND:VEVENT\nEND:VCALENDAR\n'))).toThrow(/DTSTART/);
  });
});
