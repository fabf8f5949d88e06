import { z } from 'zod';

/**
 * A calendar as ops-api publishes it under cacheKeys.calendars() (a JSON list of every calendar)
 * for the evaluators in other services: the id a geofence's calendarId names and the base64
 * iCalendar data, parsed on their side with parseCalendar.
 */
export const CalendarDefinition = z.object({
  id: z.number().int(),
  data: z.string(),
  /** The owning company; null: shared (and in lists written before calendars carried it). */
  companyId: z.number().int().nullable().optional(),
});
export type CalendarDefinition = z.infer<typeof CalendarDefinition>;

export const CalendarDefinitions = z.array(CalendarDefinition);
