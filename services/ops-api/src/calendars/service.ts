import { and, asc, count, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Calendar, CalendarInput, LinkedListQuery } from '@corridor/contracts';
import { AppError, cacheKeys, type Cache, type Logger, type Orm } from '@corridor/platform';
import type { CalendarDefinition } from '@corridor/platform/calendar/definition';
import { parseCalendar } from '@corridor/platform/calendar/ical';
import { calendars, devices, notificationRules, type CalendarRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';
import { linkedFilter } from '../object-links/linked-filter';
import { publishedToCache } from '../resources/cache-published';

const toCalendar = (r: CalendarRow): Calendar => ({
  id: r.id,
  name: r.name,
  data: r.data,
  companyId: r.companyId,
  attributes: r.attributes,
});

/**
 * Calendars: data must be a base64 iCalendar that parses (ical.js); a calendar still in use cannot be deleted.
 * Every calendar is published to the cache (cacheKeys.calendars) at start and after each change, for
 * the geofence evaluator, which honours a fence's calendarId with them.
 */
export function calendarsService(deps: { db: Orm; cache: Cache; logger: Logger }) {
  const { db } = deps;
  const crud = resourceService<CalendarRow, Calendar, CalendarInput, z.output<typeof LinkedListQuery>>(db, {
    name: 'Calendar',
    entityType: 'calendar',
    table: calendars,
    company: calendars.companyId,
    shared: true,
    keywordColumns: [calendars.name],
    filters: (q) => linkedFilter(db, calendars.id, 'calendarId', q),
    toEntity: toCalendar,
    toValues: (i, companyId) => ({ name: i.name, data: i.data, companyId, attributes: i.attributes }),
    async validate(i) {
      try {
        parseCalendar(i.data);
      } catch (err) {
        throw invalidField('data', (err as Error).message);
      }
    },
    async beforeDelete(row) {
      const [d] = await db.select({ n: count() }).from(devices).where(eq(devices.calendarId, row.id));
      const [r] = await db
        .select({ n: count() })
        .from(notificationRules)
        .where(and(eq(notificationRules.calendarId, row.id)));
      const used = (d?.n ?? 0) + (r?.n ?? 0);
      if (used)
        throw new AppError('CONFLICT', `Calendar ${row.id} is used by ${d?.n ?? 0} device(s) and ${r?.n ?? 0} notification rule(s)`);
    },
  });

  const load = async (): Promise<CalendarDefinition[]> =>
    db.select({ id: calendars.id, data: calendars.data, companyId: calendars.companyId }).from(calendars).orderBy(asc(calendars.id));
  return publishedToCache(crud, { cache: deps.cache, key: cacheKeys.calendars(), load, logger: deps.logger, what: 'calendars' });
}
export type CalendarsService = ReturnType<typeof calendarsService>;
