import { z } from 'zod';
import { Attributes } from './common';
import { OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';
import { LinkedListQuery } from './object-links';

/** Calendar, in Traccar's shape: `data` is a base64-encoded iCalendar (RFC 5545) document. */
export const Calendar = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    data: z.string().describe('base64 of an iCalendar document (VCALENDAR with at least one VEVENT)'),
    companyId: z.number().int().nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'Calendar' });
export type Calendar = z.infer<typeof Calendar>;

export const CalendarInput = z
  .object({
    name: z.string().min(1).max(128),
    data: z
      .base64()
      .max(512 * 1024)
      .describe('base64 of an iCalendar document; it must parse (400 naming data otherwise)'),
    companyId: OwnerCompanyInput,
    attributes: Attributes.default({}),
  })
  .meta({ id: 'CalendarInput' });
export type CalendarInput = z.infer<typeof CalendarInput>;

export const calendarsEndpoints = resourceEndpoints({
  id: 'calendars',
  path: '/calendars',
  noun: 'calendar',
  kind: 'calendar',
  tags: ['calendars'],
  entity: Calendar,
  input: CalendarInput,
  query: LinkedListQuery,
  write: trackingWriters,
  companyScoped: true,
  description: 'Traccar Calendar: limits when notification rules fire. Keyword searches the name.',
});
