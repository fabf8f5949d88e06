import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReportGeofence, type Device, type Event, type Geofence } from '@corridor/contracts';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { ADMIN_AUTH, eventually, startTestStack, type TestStack } from './test-stack';

/**
 * Geofence links as Traccar has them, through the whole stack with traccar-web's bodies: a fence a
 * user draws applies only to the devices linked to it (directly, or through the device's group),
 * linked with POST /api/permissions and ids as strings; the association's fences (the seeded border
 * posts of packages/geodata) apply to every truck. Two trucks drive the same road through three
 * drawn fences and Malaba border post: each gets events, and geofences report rows, for its own
 * linked fence and for Malaba only. A linked fence with a calendar fires only during the
 * calendar's events.
 */
describe("Traccar's geofence links in the evaluator", { timeout: 180_000 }, () => {
  let stack: TestStack;
  const call = (method: string, url: string, body?: unknown) => stack.call(ADMIN_AUTH, method, url, body);
  const ok = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const res = await call(method, url, body);
    expect(res.statusCode, `${method} ${url} ${res.body}`).toBeLessThan(300);
    return (res.body ? res.json() : undefined) as T;
  };
  // Malaba OSBP: a seeded border post (800 m, 120 s inside to enter), north along its meridian
  const LON = 34.276;
  const MALABA_LAT = 0.637;
  let direct: Device;
  let member: Device;
  let fences: Record<'device' | 'group' | 'none', Geofence>;
  let malaba: number;
  const from = new Date(Date.now() - 3 * 3600_000);

  beforeAll(async () => {
    stack = await startTestStack(await primaryKind());
    // traccar-web's bodies: a group, devices with their unique ids, fences drawn with their area and attributes only
    const group = await ok<{ id: number }>('POST', '/api/groups', { name: 'Malaba run', attributes: {} });
    direct = await ok<Device>('POST', '/api/devices', { name: 'KDG 301', uniqueId: '867000000000301', attributes: {} });
    member = await ok<Device>('POST', '/api/devices', { name: 'KDG 302', uniqueId: '867000000000302', groupId: group.id, attributes: {} });
    const draw = (name: string, lat: number) =>
      ok<Geofence>('POST', '/api/geofences', { name, area: `CIRCLE (${lat} ${LON}, 300)`, attributes: {} });
    fences = {
      device: await draw('Yard of KDG 301', 0.59),
      group: await draw('Yard of the Malaba run', 0.6),
      none: await draw('Yard of nobody', 0.61),
    };
    malaba = (await ok<Geofence[]>('GET', '/api/geofences?keyword=Malaba&kind=border_post'))[0]!.id;
    // LinkField saves each link with the page's id as the string of its route
    await ok('POST', '/api/permissions', { deviceId: String(direct.id), geofenceId: String(fences.device.id) });
    await ok('POST', '/api/permissions/bulk', [{ groupId: String(group.id), geofenceId: fences.group.id }]);
    expect(await ok('GET', `/api/permissions?deviceId=${direct.id}&geofenceId=0`)).toEqual([
      { deviceId: direct.id, geofenceId: fences.device.id },
    ]);
    expect((await ok<Geofence[]>('GET', `/api/geofences?deviceId=${direct.id}`)).map((g) => g.id)).toEqual([fences.device.id]);
    expect((await ok<Geofence[]>('GET', `/api/geofences?groupId=${group.id}`)).map((g) => g.id)).toEqual([fences.group.id]);
    expect(await ok('GET', `/api/geofences?deviceId=${member.id}`)).toEqual([]);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  /** One fix a minute from 0.57 to 0.66 north, 0.005° apart (through each drawn fence, 10 minutes at Malaba). */
  const drive = async (d: Device) => {
    const t0 = Math.floor(from.getTime() / 1000) + 60;
    const lats = [
      0.57,
      0.58,
      0.59,
      0.595,
      0.6,
      0.605,
      0.61,
      0.615,
      0.62,
      0.63,
      ...Array.from({ length: 10 }, () => MALABA_LAT),
      0.65,
      0.66,
    ];
    for (const [i, lat] of lats.entries()) {
      const res = await stack.ingest.osmand.inject({
        method: 'GET',
        url: `/?id=${d.uniqueId}&lat=${lat}&lon=${LON}&timestamp=${t0 + i * 60}&speed=20`,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  };
  const period = () => new URLSearchParams({ from: from.toISOString(), to: new Date(Date.now() + 60_000).toISOString() });

  it('gives each truck the events of its linked fence (directly or through its group) and of the border post, none of the unlinked fence', async () => {
    await Promise.all([drive(direct), drive(member)]);
    for (const [truck, own] of [
      [direct, fences.device],
      [member, fences.group],
    ] as const) {
      const q = period();
      q.set('deviceId', String(truck.id));
      q.set('type', 'allEvents');
      // the exit from Malaba is the last geofence event of the drive: every fix before it was evaluated
      // (other seeded places near the road, if any, are not this test's business)
      const ours = new Set([fences.device.id, fences.group.id, fences.none.id, malaba]);
      const events = await eventually(`${truck.name} leaving Malaba in the events report`, async () => {
        const r = (await ok<Event[]>('GET', `/api/reports/events?${q}`)).filter(
          (e) => e.type.startsWith('geofence') && ours.has(e.geofenceId!),
        );
        return r.some((e) => e.type === 'geofenceExit' && e.geofenceId === malaba) && r;
      });
      expect(
        events.map((e) => [e.type, e.geofenceId]),
        truck.name,
      ).toEqual([
        ['geofenceEnter', own.id],
        ['geofenceExit', own.id],
        ['geofenceEnter', malaba],
        ['geofenceExit', malaba],
      ]);
      const rows = (await ok<unknown[]>('GET', `/api/reports/geofences?${q}`)).map((r) => ReportGeofence.parse(r));
      expect(
        rows.map((r) => r.geofenceId).filter((id) => ours.has(id)),
        truck.name,
      ).toEqual([own.id, malaba]);
    }
  });

  it("fires a linked fence with a calendar only while one of the calendar's events runs (traccar-web's bodies)", async () => {
    // weekdays 05:00-15:00 UTC, as traccar-web uploads a calendar: the iCalendar file in base64
    const ics =
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corridor//test//EN\r\nBEGIN:VEVENT\r\nUID:shift\r\nDTSTART:20260105T050000Z\r\n' +
      'DTEND:20260105T150000Z\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    const calendar = await ok<{ id: number }>('POST', '/api/calendars', {
      name: 'Weekday shift',
      data: Buffer.from(ics).toString('base64'),
      attributes: {},
    });
    const yard = await ok<Geofence>('POST', '/api/geofences', {
      name: 'Shift yard',
      area: `CIRCLE (0.7 ${LON + 0.3}, 300)`,
      calendarId: calendar.id,
      attributes: {},
    });
    const truck = await ok<Device>('POST', '/api/devices', { name: 'KDG 303', uniqueId: '867000000000303', attributes: {} });
    await ok('POST', '/api/permissions', { deviceId: String(truck.id), geofenceId: String(yard.id) });
    // through the yard on Saturday 21 November at 10:00 (no shift) and on Monday 23 November at 12:00 (the shift)
    for (const day of ['2026-11-21T10:00:00Z', '2026-11-23T12:00:00Z']) {
      const t = Date.parse(day) / 1000;
      for (const [dt, lat] of [
        [-120, 0.72],
        [0, 0.7],
        [60, 0.7],
        [120, 0.72],
      ] as const) {
        const res = await stack.ingest.osmand.inject({
          method: 'GET',
          url: `/?id=${truck.uniqueId}&lat=${lat}&lon=${LON + 0.3}&timestamp=${t + dt}&speed=10`,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const q = new URLSearchParams({
      deviceId: String(truck.id),
      from: '2026-11-20T00:00:00Z',
      to: new Date().toISOString(),
      type: 'allEvents',
    });
    const events = await eventually('the exit on Monday in the events report', async () => {
      const r = (await ok<Event[]>('GET', `/api/reports/events?${q}`)).filter((e) => e.geofenceId === yard.id);
      return r.some((e) => e.type === 'geofenceExit' && e.eventTime.startsWith('2026-11-23')) && r;
    });
    expect(events.map((e) => [e.type, e.eventTime])).toEqual([
      ['geofenceEnter', '2026-11-23T12:00:00.000Z'],
      ['geofenceExit', '2026-11-23T12:02:00.000Z'],
    ]);
  });
});
