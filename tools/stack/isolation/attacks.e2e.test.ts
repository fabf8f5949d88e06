import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { ADMIN_AUTH, startTestStack, type Res, type TestStack, type TestUser } from '../test-stack';
import { calendarData, geofenceInput, routeInput } from './fixtures';

/**
 * The reference attacks of issue 11, each as it was done on the running stack: a user of company A
 * (101) naming company B's (202) entries by id. Each answered 2xx before ids were checked against the
 * caller's company; now each answers 404 exactly like an unknown id (403 where the role or a shared
 * entry is the reason). Whole stack, through the gateway, on the real parts where the environment
 * has them.
 */
const A = 101;
const B = 202;
let s: TestStack;
let dispA: TestUser;
let dispB: TestUser;
let userA: TestUser;
let trackerA: TestUser;
const ids: Record<string, number> = {};
const uid = (n: string) => `86${Date.now() % 1e9}${n}`;

const ok = (res: Res, status = 200) => {
  expect(res.statusCode, res.body).toBe(status);
  return (res.body ? res.json() : {}) as { id: number };
};
const notFound = (res: Res) => {
  expect(res.statusCode, res.body).toBe(404);
  expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
};

beforeAll(async () => {
  s = await startTestStack(await primaryKind());
  [dispA, dispB, userA] = await Promise.all([s.user(['dispatcher'], A), s.user(['dispatcher'], B), s.user(['company_user'], A)]);
  for (const [key, company] of [
    ['devA', A],
    ['devA2', A],
    ['devB', B],
  ] as const) {
    ids[key] = ok(await s.call(ADMIN_AUTH, 'POST', '/api/devices', { name: key, uniqueId: uid(key.slice(-1)), companyId: company })).id;
  }
  trackerA = await s.user(['device'], A);
  ok(await s.call(ADMIN_AUTH, 'POST', '/api/permissions', { userId: trackerA.id, deviceId: ids.devA }), 204);
  ids.groupB = ok(await s.call(dispB.auth, 'POST', '/api/groups', { name: 'B trucks' })).id;
  ids.calendarB = ok(await s.call(dispB.auth, 'POST', '/api/calendars', { name: 'B hours', data: calendarData })).id;
  ids.fenceB = ok(await s.call(dispB.auth, 'POST', '/api/geofences', geofenceInput('B depot'))).id;
  ids.routeB = ok(await s.call(dispB.auth, 'POST', '/api/routes', routeInput('B route'))).id;
  ids.routeA = ok(await s.call(dispA.auth, 'POST', '/api/routes', routeInput('A route'))).id;
  ids.journeyB = ok(await s.call(dispB.auth, 'POST', '/api/journey', { deviceId: ids.devB, routeId: ids.routeB })).id;
}, 180_000);

afterAll(async () => {
  await s?.close();
});

describe("issue 11: references to another company's entries answer like unknown ids", () => {
  it("a dispatcher cannot declare a journey on another company's device", async () => {
    notFound(await s.call(dispA.auth, 'POST', '/api/journey', { deviceId: ids.devB, routeId: ids.routeA }));
    ok(await s.call(dispA.auth, 'POST', '/api/journey', { deviceId: ids.devA, routeId: ids.routeA }));
  });

  it("a company user cannot read another company's journey (and its truck's track)", async () => {
    notFound(await s.call(userA.auth, 'GET', `/api/journey/${ids.journeyB}`));
    notFound(await s.call(userA.auth, 'GET', `/api/journey/99999999`));
  });

  it("POST /positions refuses a fix for another company's device", async () => {
    const fix = (uniqueId: string) => ({ positions: [{ uniqueId, fixTime: new Date().toISOString(), latitude: -1.3, longitude: 36.8 }] });
    const devB = (await s.call(ADMIN_AUTH, 'GET', `/api/devices/${ids.devB}`)).json<{ uniqueId: string }>();
    notFound(await s.call(trackerA.auth, 'POST', '/api/positions', fix(devB.uniqueId)));
    const devA = (await s.call(ADMIN_AUTH, 'GET', `/api/devices/${ids.devA}`)).json<{ uniqueId: string }>();
    ok(await s.call(trackerA.auth, 'POST', '/api/positions', fix(devA.uniqueId)));
  });

  it('POST /positions refuses a device account that is not bound to the device, and dispatchers', async () => {
    const fix = (uniqueId: string) => ({ positions: [{ uniqueId, fixTime: new Date().toISOString(), latitude: -1.3, longitude: 36.8 }] });
    const devA2 = (await s.call(ADMIN_AUTH, 'GET', `/api/devices/${ids.devA2}`)).json<{ uniqueId: string }>();
    notFound(await s.call(trackerA.auth, 'POST', '/api/positions', fix(devA2.uniqueId)));
    expect((await s.call(dispA.auth, 'POST', '/api/positions', fix(devA2.uniqueId))).statusCode).toBe(403);
    ok(await s.call(ADMIN_AUTH, 'POST', '/api/positions', fix(devA2.uniqueId)));
  });

  it("a dispatcher cannot rename or delete another company's geofence", async () => {
    notFound(await s.call(dispA.auth, 'PUT', `/api/geofences/${ids.fenceB}`, geofenceInput('renamed')));
    notFound(await s.call(dispA.auth, 'DELETE', `/api/geofences/${ids.fenceB}`));
    expect((await s.call(dispB.auth, 'GET', `/api/geofences/${ids.fenceB}`)).json()).toMatchObject({ name: 'B depot', companyId: B });
  });

  it("a dispatcher cannot rename or delete another company's route", async () => {
    notFound(await s.call(dispA.auth, 'PUT', `/api/routes/${ids.routeB}`, routeInput('renamed')));
    notFound(await s.call(dispA.auth, 'DELETE', `/api/routes/${ids.routeB}`));
    expect((await s.call(dispB.auth, 'GET', `/api/routes/${ids.routeB}`)).json()).toMatchObject({ name: 'B route', companyId: B });
  });

  it('a company dispatcher cannot rename a seeded border post; staff can', async () => {
    const posts = (await s.call(dispA.auth, 'GET', '/api/geofences?kind=border_post&limit=1')).json<
      { id: number; name: string; area: string; companyId: number | null }[]
    >();
    const post = posts[0]!;
    expect(post.companyId).toBeNull();
    const res = await s.call(dispA.auth, 'PUT', `/api/geofences/${post.id}`, { name: 'renamed', area: post.area, kind: 'border_post' });
    expect(res.statusCode, res.body).toBe(403);
    expect((await s.call(dispA.auth, 'DELETE', `/api/geofences/${post.id}`)).statusCode).toBe(403);
    expect((await s.call(dispA.auth, 'POST', `/api/geofences/${post.id}/links`, { deviceId: ids.devA })).statusCode).toBe(403);
    expect((await s.call(dispA.auth, 'GET', `/api/geofences/${post.id}`)).json()).toMatchObject({ name: post.name });
    const officer = await s.user(['association_officer'], null);
    const staff = await s.call(officer.auth, 'PUT', `/api/geofences/${post.id}`, {
      name: `${post.name} (checked)`,
      area: post.area,
      kind: 'border_post',
    });
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.json()).toMatchObject({ companyId: null });
  });

  it("a device cannot be put in another company's group or calendar", async () => {
    const devA = (await s.call(dispA.auth, 'GET', `/api/devices/${ids.devA}`)).json<Record<string, unknown>>();
    notFound(await s.call(dispA.auth, 'PUT', `/api/devices/${ids.devA}`, { ...devA, groupId: ids.groupB }));
    notFound(await s.call(dispA.auth, 'PUT', `/api/devices/${ids.devA}`, { ...devA, calendarId: ids.calendarB }));
    notFound(await s.call(dispA.auth, 'POST', '/api/devices', { name: 'x', uniqueId: uid('x'), groupId: ids.groupB }));
  });

  it("geofences cannot be linked to another company's devices or groups", async () => {
    const fenceA = ok(await s.call(dispA.auth, 'POST', '/api/geofences', geofenceInput('A yard'))).id;
    notFound(await s.call(dispA.auth, 'POST', `/api/geofences/${fenceA}/links`, { deviceId: ids.devB }));
    notFound(await s.call(dispA.auth, 'POST', `/api/geofences/${fenceA}/links`, { groupId: ids.groupB }));
    ok(await s.call(dispA.auth, 'POST', `/api/geofences/${fenceA}/links`, { deviceId: ids.devA }));
  });

  it("a shipment cannot point at another company's journey", async () => {
    const shipment = {
      reference: `SH-${Date.now()}`,
      origin: { place: 'Mombasa', country: 'KE' },
      destination: { place: 'Kampala', country: 'UG' },
      corridor: 'northern',
      journeyId: ids.journeyB,
    };
    const res = await s.call(dispA.auth, 'POST', '/api/shipments/company', shipment);
    notFound(res);
  });

  it('a foreign user cannot be named as a notification recipient', async () => {
    const rule = (userId: number) => ({
      type: 'geofenceEnter',
      always: true,
      notificators: ['web'],
      recipients: [{ userId, email: 'x@corridor.test' }],
    });
    notFound(await s.call(dispA.auth, 'POST', '/api/notifications', rule(dispB.id)));
    ok(await s.call(dispA.auth, 'POST', '/api/notifications', rule(userA.id)));
  });
});
