/** Valid bodies for the entries the isolation tests create (a weekday-hours calendar, a small fence, a short route). */
export const calendarData = Buffer.from(
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corridor//test//EN\r\nBEGIN:VEVENT\r\nUID:office\r\nDTSTART;TZID=Africa/Nairobi:20260105T080000\r\n' +
    'DURATION:PT9H\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
).toString('base64');

export const geofenceInput = (name: string) => ({ name, area: 'CIRCLE (-3.95 39.65, 300)', kind: 'inland_depot' });

export const routeInput = (name: string) => ({
  name,
  line: [
    [38.55, -3.4],
    [38.56, -3.38],
    [38.57, -3.36],
    [38.58, -3.34],
  ],
  widthM: 300,
  speedLimitsKmh: [50, 80, 80],
  expectedDurationMinutes: 10,
  countries: ['KE'],
});
