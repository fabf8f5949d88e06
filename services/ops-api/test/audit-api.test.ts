import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEndpoints, OperationsAuditEntity, type OperationsAuditPage, type Shipment } from '@corridor/contracts';
import type { Identity } from '@corridor/platform';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { runAuditQueryTests } from '@corridor/platform/testing/audit-route-tests';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type OpsApiService } from '../src/app';
import { audit } from '../src/audit/audit';
import { localStorage } from '../src/documents/storage';
import { noScanner } from '../src/documents/virus-scan';

/** GET /api/audit/operations: shipment decisions made through the API, read back by the association. */
let adapters: TestAdapters;
let svc: OpsApiService;
let dir: string;
const endpoint = auditEndpoints[3];
const app = () => svc.app;

async function call(method: 'GET' | 'POST' | 'PATCH', url: string, user: Identity, payload?: unknown) {
  return app().inject({ method, url, headers: await asUser(user), ...(payload === undefined ? {} : { payload: payload as object }) });
}
const read = async (query: string, user: Identity = testUsers.officer) => call('GET', `/api/audit/operations${query}`, user);
const page = async (query: string, user?: Identity): Promise<OperationsAuditPage> => {
  const res = await read(query, user);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OperationsAuditPage>();
};

const shipmentInput = (reference: string) => ({
  reference,
  origin: { place: 'Mombasa', country: 'KE' },
  destination: { place: 'Kampala', country: 'UG' },
  corridor: 'northern',
  borderCrossings: ['Malaba'],
  truckPlate: 'KDA 123A',
  containerNumbers: ['MSKU1234565'],
  plannedDeparture: '2026-06-01T06:00:00Z',
  plannedArrival: '2026-06-04T18:00:00Z',
});
const HOLD_REASON = 'KRA customs query on the container seal';

let started: Date;
let held: Shipment;
let other: Shipment;

async function changeStatus(id: number, user: Identity, status: string, reason?: string): Promise<void> {
  const res = await call('PATCH', `/api/shipments/${id}/status`, user, { status, ...(reason ? { reason } : {}) });
  expect(res.statusCode, res.body).toBe(200);
}

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  dir = await mkdtemp(join(tmpdir(), 'ops-audit-api-'));
  svc = await build({
    ...adapters,
    logger: adapters.logger,
    identitySecret: TEST_IDENTITY_SECRET,
    documents: { storage: localStorage(dir), scanner: noScanner, maxBytes: 1 << 20 },
  });
  started = new Date();
  // company A books a shipment and the association puts it on hold; company B drafts another
  const a = await call('POST', '/api/shipments/company', testUsers.companyA, shipmentInput('MSA-KLA-AUDIT-1'));
  expect(a.statusCode, a.body).toBe(201);
  held = a.json<Shipment>();
  await changeStatus(held.id, testUsers.companyA, 'booked');
  await changeStatus(held.id, testUsers.officer, 'on_hold', HOLD_REASON);
  const b = await call('POST', '/api/shipments/company', testUsers.companyB, shipmentInput('MSA-KLA-AUDIT-2'));
  expect(b.statusCode, b.body).toBe(201);
  other = b.json<Shipment>();
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
  await rm(dir, { recursive: true, force: true });
});

runCommonRouteTests({ app, endpoint });
runAuditQueryTests({ app, endpoint, headers: () => asUser(testUsers.analyst), foreignEntityType: 'user' });

describe('GET /api/audit/operations', () => {
  it("reads back a shipment's decisions: who (and their company), the company concerned, the reason, before and after", async () => {
    const p = await page(`?entityType=shipment&entityId=${held.id}`);
    expect(p).toMatchObject({ total: 3, limit: 100, offset: 0 });
    expect(p.items.map((e) => [e.action, e.actor, e.companyId, e.reason])).toEqual([
      ['shipment.status', { userId: testUsers.officer.userId, email: testUsers.officer.email, companyId: null }, 101, HOLD_REASON],
      ['shipment.status', { userId: testUsers.companyA.userId, email: testUsers.companyA.email, companyId: 101 }, 101, null],
      ['shipment.create', { userId: testUsers.companyA.userId, email: testUsers.companyA.email, companyId: 101 }, 101, null],
    ]);
    expect(p.items[0]).toMatchObject({ before: { status: 'booked' }, after: { status: 'on_hold', statusBeforeHold: 'booked' } });
    expect(p.items[2]).toMatchObject({ before: null, after: { reference: 'MSA-KLA-AUDIT-1', status: 'draft' } });
  });

  it('pages and filters: actions, actor, entity, period', async () => {
    const all = await page('');
    expect(all.total).toBe(4);
    expect(all.items.map((e) => [e.action, e.entityId])).toEqual([
      ['shipment.create', String(other.id)],
      ['shipment.status', String(held.id)],
      ['shipment.status', String(held.id)],
      ['shipment.create', String(held.id)],
    ]);
    expect((await page('?limit=2&offset=2')).items.map((e) => e.action)).toEqual(['shipment.status', 'shipment.create']);
    expect((await page('?action=shipment.status')).total).toBe(2);
    expect((await page('?action=shipment.create,cargo.status')).items.map((e) => e.entityId)).toEqual([String(other.id), String(held.id)]);
    expect((await page(`?actorUserId=${testUsers.officer.userId}`)).items.map((e) => e.reason)).toEqual([HOLD_REASON]);
    expect((await page(`?actorUserId=${testUsers.companyB.userId}&entityType=shipment`)).items.map((e) => e.entityId)).toEqual([
      String(other.id),
    ]);
    expect((await page('?entityType=complaint')).total).toBe(0);
    expect((await page(`?from=${encodeURIComponent(started.toISOString())}`)).total).toBe(4);
    expect((await page(`?to=${encodeURIComponent(new Date(started.getTime() - 60_000).toISOString())}`)).total).toBe(0);
  });

  it('is open to the association (analysts included), never to a company, its agents or a dispatcher', async () => {
    for (const user of [testUsers.admin, testUsers.officer, testUsers.analyst])
      expect((await read('', user)).statusCode, user.email).toBe(200);
    for (const user of [testUsers.companyA, testUsers.agentA, testUsers.dispatcher]) {
      const res = await read(`?entityType=shipment&entityId=${held.id}`, user);
      expect(res.statusCode, user.email).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
  });

  it("the contract's entity types are the trail's", () => {
    expect(OperationsAuditEntity.options).toEqual([...audit.entityTypes]);
  });
});
