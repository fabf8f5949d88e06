import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEndpoints, GeofenceAuditEntity, type Geofence, type GeofenceAuditPage, type GeofenceInputBody } from '@corridor/contracts';
import type { Identity } from '@corridor/platform';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { runAuditQueryTests } from '@corridor/platform/testing/audit-route-tests';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type GeofenceService } from '../src/app';
import { audit } from '../src/audit/audit';

/** GET /api/audit/geofences: fence changes made through the API, read back by the association. */
let adapters: TestAdapters;
let svc: GeofenceService;
const endpoint = auditEndpoints[2];
const app = () => svc.app;

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: Identity, payload?: unknown) {
  return app().inject({ method, url, headers: await asUser(user), ...(payload === undefined ? {} : { payload: payload as object }) });
}
const read = async (query: string, user: Identity = testUsers.officer) => call('GET', `/api/audit/geofences${query}`, user);
const page = async (query: string, user?: Identity): Promise<GeofenceAuditPage> => {
  const res = await read(query, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<GeofenceAuditPage>();
};

const yard: GeofenceInputBody = { name: 'Kisumu yard', area: 'CIRCLE (-0.1 34.7, 300)', kind: 'restricted', country: 'KE' };
let started: Date;
let fence: Geofence;
let other: Geofence;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  // built, not started: no seed fences, no consumers; every audit row comes from the calls below
  svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
  started = new Date();
  const created = await call('POST', '/api/geofences', testUsers.dispatcher, yard);
  expect(created.statusCode, created.body).toBe(200);
  fence = created.json<Geofence>();
  const updated = await call('PUT', `/api/geofences/${fence.id}`, testUsers.officer, { ...yard, area: 'CIRCLE (-0.1 34.7, 500)' });
  expect(updated.statusCode, updated.body).toBe(200);
  const second = await call('POST', '/api/geofences', testUsers.admin, { name: 'Malaba holding bay', area: 'CIRCLE (0.637 34.276, 400)' });
  expect(second.statusCode, second.body).toBe(200);
  other = second.json<Geofence>();
  expect((await call('DELETE', `/api/geofences/${other.id}`, testUsers.dispatcher)).statusCode).toBe(204);
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

runCommonRouteTests({ app, endpoint });
runAuditQueryTests({ app, endpoint, headers: () => asUser(testUsers.officer), foreignEntityType: 'journey' });

describe('GET /api/audit/geofences', () => {
  it('reads back one fence created and changed: who, before and after, newest first', async () => {
    const p = await page(`?entityType=geofence&entityId=${fence.id}`);
    expect(p).toMatchObject({ total: 2, limit: 100, offset: 0 });
    expect(p.items.map((e) => [e.action, e.actor])).toEqual([
      ['geofence.update', { userId: testUsers.officer.userId, email: testUsers.officer.email }],
      ['geofence.create', { userId: testUsers.dispatcher.userId, email: testUsers.dispatcher.email }],
    ]);
    expect(p.items[0]).toMatchObject({ before: { area: 'CIRCLE (-0.1 34.7, 300)' }, after: { area: 'CIRCLE (-0.1 34.7, 500)' } });
    expect(p.items[1]!.before).toBeNull();
  });

  it('keeps the deleted fence in the trail, its last state in before', async () => {
    const p = await page(`?entityId=${other.id}&action=geofence.delete`);
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).toMatchObject({ action: 'geofence.delete', before: { name: 'Malaba holding bay', links: [] }, after: null });
  });

  it('pages and filters: actions, actor, period', async () => {
    const all = await page('', testUsers.analyst);
    expect(all.total).toBe(4);
    expect(all.items.map((e) => e.action)).toEqual(['geofence.delete', 'geofence.create', 'geofence.update', 'geofence.create']);
    const second = await page('?limit=1&offset=1');
    expect([second.total, second.items.map((e) => [e.action, e.entityId])]).toEqual([4, [['geofence.create', String(other.id)]]]);
    expect((await page('?action=geofence.create')).items.map((e) => e.entityId)).toEqual([String(other.id), String(fence.id)]);
    expect((await page('?action=geofence.update,geofence.delete')).total).toBe(2);
    expect((await page(`?actorUserId=${testUsers.dispatcher.userId}`)).items.map((e) => e.action)).toEqual([
      'geofence.delete',
      'geofence.create',
    ]);
    expect((await page('?entityType=geofence_link')).total).toBe(0);
    expect((await page(`?from=${encodeURIComponent(started.toISOString())}`)).total).toBe(4);
    expect((await page(`?to=${encodeURIComponent(new Date(started.getTime() - 60_000).toISOString())}`)).total).toBe(0);
  });

  it('is refused to company users and dispatchers, who make fence changes but do not review them', async () => {
    for (const user of [testUsers.companyA, testUsers.agentA, testUsers.dispatcher]) {
      const res = await read('', user);
      expect(res.statusCode, user.email).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
  });

  it("the contract's entity types are the trail's", () => {
    expect(GeofenceAuditEntity.options).toEqual([...audit.entityTypes]);
  });
});
