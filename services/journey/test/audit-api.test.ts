import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEndpoints,
  JourneyAuditEntity,
  type Journey,
  type JourneyAuditPage,
  type Route,
  type RouteInputRaw,
} from '@corridor/contracts';
import type { Identity } from '@corridor/platform';
import { asUser, testUsers, userWith } from '@corridor/platform/testing/identity';
import { runAuditQueryTests } from '@corridor/platform/testing/audit-route-tests';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { registerDevices } from '@corridor/platform/testing/registry';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import type { JourneyService } from '../src/app';
import { audit } from '../src/audit/audit';
import { buildJourney, testClock } from './journey-harness';

/** GET /api/audit/journeys: route and journey decisions made through the API, read back by the association. */
let adapters: TestAdapters;
let svc: JourneyService;
const endpoint = auditEndpoints[1];
const app = () => svc.app;
const companyDispatcher = userWith(['dispatcher'], 202, 42);

async function call(method: string, url: string, user: Identity, payload?: unknown) {
  return app().inject({
    method: method as 'GET',
    url,
    headers: await asUser(user),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}
const read = async (query: string, user: Identity = testUsers.officer) => call('GET', `/api/audit/journeys${query}`, user);
const page = async (query: string): Promise<JourneyAuditPage> => {
  const res = await read(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<JourneyAuditPage>();
};

const routeInput = (over: Partial<RouteInputRaw> = {}): RouteInputRaw => ({
  name: 'Voi bypass',
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
  ...over,
});

let started: Date;
let route: Route;
let journey: Journey;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  // built, not started: no seed routes, no consumer; every audit row comes from the calls below
  svc = await buildJourney(adapters, testClock(Date.parse('2025-03-03T05:00:00Z')), { seedRoutes: false });
  started = new Date();
  const created = await call('POST', '/api/routes', testUsers.dispatcher, routeInput());
  expect(created.statusCode, created.body).toBe(200);
  route = created.json<Route>();
  const updated = await call('PUT', `/api/routes/${route.id}`, testUsers.admin, routeInput({ name: 'Voi bypass (wider)', widthM: 500 }));
  expect(updated.statusCode, updated.body).toBe(200);
  await registerDevices(adapters.cache, [{ id: 801, companyId: companyDispatcher.companyId }]);
  const declared = await call('POST', '/api/journey', companyDispatcher, { deviceId: 801, routeId: route.id, truckPlate: 'KBX 001A' });
  expect(declared.statusCode, declared.body).toBe(200);
  journey = declared.json<Journey>();
  const cancelled = await call('POST', `/api/journey/${journey.id}/cancel`, companyDispatcher, {
    reason: 'truck broke down at Mtito Andei',
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

runCommonRouteTests({ app, endpoint });
runAuditQueryTests({ app, endpoint, headers: () => asUser(testUsers.officer), foreignEntityType: 'geofence' });

describe('GET /api/audit/journeys', () => {
  it('reads back a journey declared and cancelled by a company dispatcher: the company, the note, the actor company', async () => {
    const p = await page(`?entityType=journey&entityId=${journey.id}`);
    expect(p).toMatchObject({ total: 2, limit: 100, offset: 0 });
    expect(p.items.map((e) => [e.action, e.entityId, e.actor, e.companyId, e.note])).toEqual([
      [
        'journey.cancel',
        String(journey.id),
        { userId: 42, email: companyDispatcher.email, companyId: 202 },
        202,
        'truck broke down at Mtito Andei',
      ],
      ['journey.create', String(journey.id), { userId: 42, email: companyDispatcher.email, companyId: 202 }, 202, null],
    ]);
    expect(p.items[0]).toMatchObject({ before: { state: 'planned' }, after: { state: 'cancelled' }, entityType: 'journey' });
  });

  it('reads back route decisions with the before and after, newest first', async () => {
    const p = await page(`?entityType=route&entityId=${route.id}`);
    expect(p.items.map((e) => [e.action, e.actor.email, e.actor.companyId])).toEqual([
      ['route.update', testUsers.admin.email, null],
      ['route.create', testUsers.dispatcher.email, null],
    ]);
    expect(p.items[0]).toMatchObject({ before: { name: 'Voi bypass', version: 1 }, after: { name: 'Voi bypass (wider)', version: 2 } });
  });

  it('pages and filters: actions, actor, period', async () => {
    const all = await page('');
    expect(all.total).toBe(4);
    expect(all.items.map((e) => e.action)).toEqual(['journey.cancel', 'journey.create', 'route.update', 'route.create']);
    expect((await page('?limit=2&offset=1')).items.map((e) => e.action)).toEqual(['journey.create', 'route.update']);
    expect(await page('?limit=2&offset=4')).toMatchObject({ items: [], total: 4, limit: 2, offset: 4 });

    const decisive = await page('?action=route.update,journey.cancel');
    expect(decisive.items.map((e) => [e.action, e.entityId])).toEqual([
      ['journey.cancel', String(journey.id)],
      ['route.update', String(route.id)],
    ]);
    expect((await page('?action=route.update&action=journey.cancel')).items).toEqual(decisive.items);
    expect((await page(`?actorUserId=${testUsers.admin.userId}`)).items.map((e) => e.action)).toEqual(['route.update']);
    expect((await page(`?actorUserId=42&entityType=journey&action=journey.create`)).total).toBe(1);

    const since = encodeURIComponent(started.toISOString());
    const earlier = encodeURIComponent(new Date(started.getTime() - 60_000).toISOString());
    expect((await page(`?from=${since}`)).total).toBe(4);
    expect((await page(`?to=${earlier}`)).total).toBe(0);
    expect(
      (await page(`?from=${earlier}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&entityType=route`)).total,
    ).toBe(2);
  });

  it('is open to analysts (oversight reading) as well as officers and administrators', async () => {
    for (const user of [testUsers.analyst, testUsers.admin, testUsers.officer])
      expect((await read('', user)).statusCode, user.email).toBe(200);
    const company = await read('', testUsers.companyA);
    expect(company.statusCode).toBe(403);
    expect((await read('', testUsers.dispatcher)).statusCode).toBe(403);
  });

  it("the contract's entity types are the trail's", () => {
    expect(JourneyAuditEntity.options).toEqual([...audit.entityTypes]);
  });
});
