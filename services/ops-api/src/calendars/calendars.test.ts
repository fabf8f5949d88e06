import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Calendar } from '@corridor/contracts';
import { cacheKeys } from '@corridor/platform';
import { CalendarDefinitions, type CalendarDefinition } from '@corridor/platform/calendar/definition';
import { testUsers } from '@corridor/platform/testing/identity';
import { startHarness, type Harness } from '../../test/tracking-harness';
import { expect400 } from '../../test/tracking-expect';

/** ops-api publishes every calendar to the cache for the geofence evaluator: at start and after each change. */
const ics = (start: string) =>
  Buffer.from(
    `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corridor//test//EN\r\nBEGIN:VEVENT\r\nUID:office\r\nDTSTART;TZID=Africa/Nairobi:${start}\r\n` +
      'DURATION:PT9H\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
  ).toString('base64');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

async function published(): Promise<CalendarDefinition[] | null> {
  const raw = await h.adapters.cache.get(cacheKeys.calendars());
  return raw === null ? null : CalendarDefinitions.parse(JSON.parse(raw));
}
async function call(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return h.call(testUsers.admin, method, url, payload);
}

describe('calendars in the cache', () => {
  it('publishes every calendar at start, then each create, replace and delete', async () => {
    expect(await published()).toBeNull();
    await h.svc.start(); // each module publishes what it holds at start
    expect(await published()).toEqual([]);

    const created = await call('POST', '/api/calendars', { name: 'Office hours', data: ics('20260105T080000') });
    expect(created.statusCode, created.body).toBe(200);
    const cal = created.json<Calendar>();
    expect(await published()).toEqual([{ id: cal.id, companyId: null, data: ics('20260105T080000') }]);

    const replaced = await call('PUT', `/api/calendars/${cal.id}`, { ...cal, data: ics('20260105T090000') });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await published()).toEqual([{ id: cal.id, companyId: null, data: ics('20260105T090000') }]);

    // a refused change publishes nothing new
    expect400(
      await call('PUT', `/api/calendars/${cal.id}`, {
        ...cal,
        data: Buffer.from('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n').toString('base64'),
      }),
      'data',
    );
    expect(await published()).toEqual([{ id: cal.id, companyId: null, data: ics('20260105T090000') }]);

    expect((await call('DELETE', `/api/calendars/${cal.id}`)).statusCode).toBe(204);
    expect(await published()).toEqual([]);
  });

  it('refuses a TZID that is neither defined in the calendar nor a known time zone', async () => {
    const data = Buffer.from(
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART;TZID=E. Africa Standard Time:20260105T080000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    ).toString('base64');
    expect400(await call('POST', '/api/calendars', { name: 'Outlook export', data }), 'data');
  });
});
