/**
 * iCalendar documents the geofence tests share: a weekly working-hours calendar in Nairobi time,
 * written as calendar clients export it (a TZID without its VTIMEZONE block).
 */
export function officeHoursIcs(opts: { from?: string; to?: string; days?: string } = {}): string {
  const { from = '080000', to = '170000', days = 'MO,TU,WE,TH,FR' } = opts;
  return Buffer.from(
    [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//corridor//geofence test//EN',
      'BEGIN:VEVENT',
      'UID:office-hours@corridor',
      `DTSTART;TZID=Africa/Nairobi:20260105T${from}`,
      `DTEND;TZID=Africa/Nairobi:20260105T${to}`,
      `RRULE:FREQ=WEEKLY;BYDAY=${days}`,
      'SUMMARY:Yard open',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n'),
  ).toString('base64');
}
