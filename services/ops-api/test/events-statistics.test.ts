import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventMessage, PositionMessage, type Event, type Device, type Statistics, positionId } from '@corridor/contracts';
import { eventNumericId, insertEvents, insertPositions } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { startHarness, type Harness } from './tracking-harness';
import { expect400, expectError } from './tracking-expect';
import { offlineGeocoder } from '@corridor/geodata/reverse-geocoder';

/**
 * Events by id and by device/group and period, and server statistics per day, from ClickHouse. The
 * data sits in 2031 so that other test files sharing the in-process chDB do not disturb the counts.
 */
let h: Harness;
let a1: Device;
let a2: Device;
let b1: Device;
const T = (s: string) => `2031-03-${s}Z`;

const ev = (d: Device, type: string, at: string, extra: Record<string, unknown> = {}) =>
  EventMessage.parse({
    id: `${d.id}-${type}-${Date.parse(at)}`,
    type,
    eventTime: at,
    deviceId: d.id,
    latitude: -1.3,
    longitude: 36.8,
    ...extra,
  });
const pos = (d: Device, at: string, serverAt = at, protocol = 'gt06') =>
  PositionMessage.parse({
    id: positionId(d.id, at),
    deviceId: d.id,
    uniqueId: d.uniqueId,
    protocol,
    fixTime: at,
    serverTime: serverAt,
    valid: true,
    latitude: -1.3,
    longitude: 36.8,
    speed: 10,
    course: 0,
  });

beforeAll(async () => {
  h = await startHarness();
  const group = (await h.call(testUsers.admin, 'POST', '/api/groups', { name: 'Nairobi depot', companyId: 101 })).json<{ id: number }>();
  const mk = async (uniqueId: string, companyId: number, groupId: number | null = null) =>
    (await h.call(testUsers.admin, 'POST', '/api/devices', { name: uniqueId, uniqueId, companyId, groupId })).json<Device>();
  a1 = await mk('865000000000001', 101, group.id);
  a2 = await mk('865000000000002', 101);
  b1 = await mk('865000000000003', 202);
  await insertEvents(h.adapters.analytics)([
    ev(a1, 'alarm', T('01T08:00:00'), { attributes: { alarm: 'sos' } }),
    ev(a1, 'geofenceEnter', T('01T09:00:00'), { geofenceId: '7' }),
    ev(a2, 'deviceOverspeed', T('01T10:00:00'), { attributes: { speed: 60, speedLimit: 43 } }),
    ev(b1, 'alarm', T('02T11:00:00'), { attributes: { alarm: 'powerCut' } }),
  ]);
  // day 1: a1 three fixes (one delivered twice), a2 one (teltonika); day 2: b1 one
  const twice = pos(a1, T('01T08:00:00'));
  await insertPositions(h.adapters.analytics)([
    twice,
    pos(a1, T('01T08:01:00')),
    pos(a1, T('01T08:02:00')),
    pos(a2, T('01T09:00:00'), T('01T09:00:00'), 'teltonika'),
  ]);
  await insertPositions(h.adapters.analytics)([twice, pos(b1, T('02T10:00:00'))]);
});
afterAll(async () => h?.close());

describe('events', () => {
  it('lists events of devices over a period, oldest first, optionally by type', async () => {
    const res = await h.call(
      testUsers.analyst,
      'GET',
      `/api/events?deviceId=${a1.id}&deviceId=${a2.id}&from=${T('01T00:00:00')}&to=${T('03T00:00:00')}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Event[]>().map((e) => e.type)).toEqual(['alarm', 'geofenceEnter', 'deviceOverspeed']);
    // each with the address of where it happened (the offline geocoder, hand-checked in packages/geodata)
    expect(res.json<Event[]>().map((e) => e.address)).toEqual(Array(3).fill(offlineGeocoder().reverse(-1.3, 36.8).address));
    expect(res.json<Event[]>()[0]!.address).toMatch(/ of Nairobi, KE$/);
    const alarms = await h.call(
      testUsers.analyst,
      'GET',
      `/api/events?deviceId=${a1.id}&deviceId=${b1.id}&type=alarm&from=${T('01T00:00:00')}&to=${T('03T00:00:00')}`,
    );
    expect(alarms.json<Event[]>().map((e) => e.attributes.alarm)).toEqual(['sos', 'powerCut']);
    const narrow = await h.call(testUsers.analyst, 'GET', `/api/events?deviceId=${a1.id}&from=${T('01T08:30:00')}&to=${T('01T23:00:00')}`);
    expect(narrow.json<Event[]>().map((e) => e.type)).toEqual(['geofenceEnter']);
  });

  it("lists a group's devices, and only the caller's company", async () => {
    const group = (await h.call(testUsers.companyA, 'GET', `/api/devices/${a1.id}`)).json<Device>().groupId!;
    const byGroup = await h.call(testUsers.companyA, 'GET', `/api/events?groupId=${group}&from=${T('01T00:00:00')}&to=${T('03T00:00:00')}`);
    expect(byGroup.json<Event[]>().map((e) => e.deviceId)).toEqual([a1.id, a1.id]);
    const mixed = await h.call(
      testUsers.companyA,
      'GET',
      `/api/events?deviceId=${a2.id}&deviceId=${b1.id}&from=${T('01T00:00:00')}&to=${T('03T00:00:00')}`,
    );
    // another company's device, named among the caller's own, answers like an unknown one
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: `Device ${b1.id} not found` } });
  });

  it('answers 400 naming the field for missing devices, a reversed period or a bad type', async () => {
    expect400(await h.call(testUsers.admin, 'GET', `/api/events?from=${T('01T00:00:00')}&to=${T('02T00:00:00')}`), 'deviceId');
    expect400(
      await h.call(testUsers.admin, 'GET', `/api/events?deviceId=${a1.id}&from=${T('02T00:00:00')}&to=${T('01T00:00:00')}`),
      'from',
    );
    expect400(await h.call(testUsers.admin, 'GET', `/api/events?deviceId=${a1.id}&to=${T('02T00:00:00')}`), 'from');
    expect400(
      await h.call(testUsers.admin, 'GET', `/api/events?deviceId=${a1.id}&type=nonsense&from=${T('01T00:00:00')}&to=${T('02T00:00:00')}`),
      'type',
    );
  });

  it("reads one event by id, 404 for an unknown id or another company's", async () => {
    const id = `${a1.id}-geofenceEnter-${Date.parse(T('01T09:00:00'))}`;
    const numeric = eventNumericId(id);
    const res = await h.call(testUsers.companyA, 'GET', `/api/events/${numeric}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Event>()).toMatchObject({
      id: numeric,
      type: 'geofenceEnter',
      deviceId: a1.id,
      geofenceId: 7,
      positionId: 0,
      maintenanceId: 0,
    });
    expectError(await h.call(testUsers.companyB, 'GET', `/api/events/${numeric}`), 404, 'NOT_FOUND');
    expectError(await h.call(testUsers.companyA, 'GET', `/api/events/${eventNumericId('no-such-event')}`), 404, 'NOT_FOUND');
    expectError(await h.call(testUsers.companyA, 'GET', '/api/events/no-such-event'), 400, 'VALIDATION_FAILED');
  });
});

describe('statistics', () => {
  it('counts positions, active devices, protocols and events per UTC day', async () => {
    const res = await h.call(testUsers.admin, 'GET', `/api/statistics?from=${T('01T00:00:00')}&to=${T('03T00:00:00')}`);
    expect(res.statusCode, res.body).toBe(200);
    const [d1, d2, ...rest] = res.json<Statistics[]>();
    expect(rest).toEqual([]);
    expect(d1).toMatchObject({
      captureTime: '2031-03-01T00:00:00.000Z',
      activeDevices: 2,
      messagesStored: 4,
      events: 3,
      protocols: { gt06: 3, teltonika: 1 },
    });
    expect(d1!.messagesReceived).toBeGreaterThanOrEqual(4); // a redelivery counts until ClickHouse merges it away
    expect(d1!.messagesReceived).toBeLessThanOrEqual(5);
    expect(d2).toMatchObject({
      captureTime: '2031-03-02T00:00:00.000Z',
      activeDevices: 1,
      messagesStored: 1,
      events: 1,
      protocols: { gt06: 1 },
    });
  });

  it('is for admins and analysts, over at most 366 days', async () => {
    expectError(
      await h.call(testUsers.companyA, 'GET', `/api/statistics?from=${T('01T00:00:00')}&to=${T('03T00:00:00')}`),
      403,
      'FORBIDDEN',
    );
    expect((await h.call(testUsers.analyst, 'GET', `/api/statistics?from=${T('01T00:00:00')}&to=${T('03T00:00:00')}`)).statusCode).toBe(
      200,
    );
    expect400(await h.call(testUsers.admin, 'GET', `/api/statistics?from=2029-01-01T00:00:00Z&to=${T('03T00:00:00')}`), 'to');
    expect400(await h.call(testUsers.admin, 'GET', `/api/statistics?from=${T('03T00:00:00')}&to=${T('01T00:00:00')}`), 'from');
    expect400(await h.call(testUsers.admin, 'GET', '/api/statistics?from=yesterday&to=today'), 'from');
    expect((await h.call(testUsers.admin, 'GET', '/api/statistics?from=2032-01-01T00:00:00Z&to=2032-01-02T00:00:00Z')).json()).toEqual([]);
  });
});
