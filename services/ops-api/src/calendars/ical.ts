/**
 * The iCalendar evaluation lives in @corridor/platform/calendar (the geofence evaluator uses it
 * too); ops-api modules that check calendars (notification rules) import it through here.
 */
export { calendarActiveAt, parseCalendar } from '@corridor/platform/calendar/ical';
export type { CalendarSchedule } from '@corridor/platform/calendar/schedule';
