import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventMessage, Topics, type Geofence, type PositionMessage } from '@corridor/contracts';
import { cacheKeys, type Subscription } from '@corridor/platform';
import type { CalendarDefinition } from '@corridor/platform/calendar/definition';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { build, type GeofenceService } from '../src/app';
import type { LonLat } from '../src/fences/fence';
import { eventually } from '@corridor/platform/testing/eventually';
import { MarkerFence, northOf, positionAt } from './harness';
import { officeHoursIcs } from './office-hours';

/**
 * A fence bound to a calendar (Mon-Fri 08:00-17:00, Nairobi time), end to end: positions.v1 in,
 * events.v1 out, with the calendars in the cache as ops-api publishes them.
 */
const RELOAD_MS = 150;
const CALENDAR_ID = 41;
// Saturday 16 and Monday 18 May 2026 at 00:00 in Nairobi (UTC+3)
const SAT = Date.parse('2026-05-15T21:00:00Z');
const MON = Date.parse('2026-05-17T21:00:00Z');
const at = (day: number, hours: number): Date => new Date(day + hours * 3600_000);
const YARD: LonLat = [36.95, -1.32];

let adapters: TestAdapters;
let svc: GeofenceService;
let observer: Subscription;
let fence: Geofence;
let marker: MarkerFence;
const events: EventMessage[] = [];

const publishCalendars = (defs: CalendarDefinition[]) => adapters.cache.set(cacheKeys.calendars(), JSON.stringify(defs));
const publish = (positions: PositionMessage[]) =>
  adapters.bus.publish(
    Topics.positions,
    positions.map((p) => ({ key: String(p.deviceId), value: p })),
  );
const eventsOf = (deviceId: number) => events.filter((e) => e.deviceId === deviceId);
/** the device's events once a marker fix after its drive has been evaluated, so "nothing" means nothing */
const settled = (deviceId: number, day: number) => marker.eventsBefore(deviceId, at(day, 12), { publish, eventsOf });
/** A truck driving from 3 km north into the yard: outside, then inside `hours` after `day` began. */
const driveIn = (deviceId: number, day: number, hours: number) =>
  publish([positionAt(deviceId, at(day, hours - 0.1), northOf(YARD, 3000)), positionAt(deviceId, at(day, hours), northOf(YARD, 50))]);

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  await publishCalendars([{ id: CALENDAR_ID, data: officeHoursIcs() }]);
  const [started, sub] = await Promise.all([
    (async () => {
      const s = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET, calendarReloadMs: RELOAD_MS });
      await s.start();
      return s;
    })(),
    adapters.bus.subscribe({
      groupId: 'calendar-test-observer',
      topics: [Topics.events],
      fromBeginning: true,
      handler: async (msgs) => {
        for (const m of msgs) events.push(EventMessage.parse(JSON.parse(m.value)));
      },
    }),
  ]);
  svc = started;
  observer = sub;
  const res = await svc.app.inject({
    method: 'POST',
    url: '/api/geofences',
    headers: await asUser(testUsers.admin),
    payload: {
      name: 'Embakasi yard (office hours)',
      area: `CIRCLE (${YARD[1]} ${YARD[0]}, 300)`,
      calendarId: CALENDAR_ID,
      kind: 'inland_depot',
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  fence = res.json<Geofence>();
  expect(fence.calendarId).toBe(CALENDAR_ID);
  marker = await MarkerFence.draw(async (body) => {
    const r = await svc.app.inject({ method: 'POST', url: '/api/geofences', headers: await asUser(testUsers.admin), payload: body });
    expect(r.statusCode, r.body).toBe(200);
    return r.json<Geofence>();
  }, 'Calendar test marker');
});

afterAll(async () => {
  await Promise.all([svc?.close(), observer?.stop()]);
  await adapters?.close();
});

describe('a geofence with a calendar', () => {
  it('raises nothing for a truck entering on Saturday, and an enter on Monday 09:00', async () => {
    await driveIn(7101, SAT, 9);
    await driveIn(7102, MON, 9);
    const [enter] = await eventually('the Monday enter', () => (eventsOf(7102).length ? eventsOf(7102) : undefined));
    expect(enter).toMatchObject({ type: 'geofenceEnter', geofenceId: String(fence.id), eventTime: at(MON, 9).toISOString() });
    expect(await settled(7101, SAT)).toEqual([]);
    expect(await settled(7102, MON)).toHaveLength(1);
  });

  it('takes a changed calendar without a restart', async () => {
    // the yard now opens on Saturdays only, as ops-api publishes it after the calendar's update
    await publishCalendars([{ id: CALENDAR_ID, data: officeHoursIcs({ days: 'SA' }) }]);
    await eventually('the evaluator to read the changed calendar', async () => {
      await svc.calendars.refresh();
      return svc.calendars.activeAt(CALENDAR_ID, at(SAT, 9).getTime()) && !svc.calendars.activeAt(CALENDAR_ID, at(MON, 9).getTime());
    });
    await driveIn(7103, MON, 9);
    await driveIn(7104, SAT, 9);
    const [enter] = await eventually('the Saturday enter', () => (eventsOf(7104).length ? eventsOf(7104) : undefined));
    expect(enter).toMatchObject({ type: 'geofenceEnter', geofenceId: String(fence.id), eventTime: at(SAT, 9).toISOString() });
    expect(await settled(7103, MON)).toEqual([]);
  });
});
