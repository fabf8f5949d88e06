import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allRoles,
  shipmentsEndpoints,
  ShipmentStatus,
  type DocumentWithLink,
  type ErrorBody,
  type ProgressUpdate,
  type Role,
  type Shipment,
  type ShipmentDetail,
  type TransportDocumentExtraction,
} from '@corridor/contracts';
import type { Identity } from '@corridor/platform';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers, userWith } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type OpsApiService } from '../app';
import { audit } from '../audit/audit';
import { shipments } from '../db/schema';
import { localStorage } from '../documents/storage';
import { noScanner } from '../documents/virus-scan';
import { billOfLadingPdf, cmrPdf } from '../../test/fixtures/idf-documents';
import { multipart } from '../../test/fixtures/multipart';
import { imageOnlyPdf, png, textPdf } from '../../test/fixtures/sample-files';
import { allowedShipmentMoves } from './transitions';

let adapters: TestAdapters;
let svc: OpsApiService;
let dir: string;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  dir = await mkdtemp(join(tmpdir(), 'ops-shipments-'));
  svc = await build({
    ...adapters,
    logger: adapters.logger,
    identitySecret: TEST_IDENTITY_SECRET,
    documents: { storage: localStorage(dir), scanner: noScanner, maxBytes: 1 << 20 },
  });
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
  await rm(dir, { recursive: true, force: true });
});

const [listCompany, create, update, changeStatus, allowed, addProgress, attachDocument, processTransportDocument, listAdmin, get] =
  shipmentsEndpoints;
type User = keyof typeof testUsers;
const dispatcherA = userWith(['dispatcher'], 101, 40);

async function call<T = unknown>(who: User | Identity, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) {
  const identity = typeof who === 'string' ? testUsers[who] : who;
  const res = await svc.app.inject({ method, url, headers: await asUser(identity), payload: payload as never });
  return { status: res.statusCode, body: res.json() as T, res };
}

let seq = 0;
const input = (over: Record<string, unknown> = {}) => ({
  reference: `MSA-NBO-${++seq}`,
  origin: { place: 'Mombasa', country: 'KE' },
  destination: { place: 'Kampala', country: 'UG' },
  corridor: 'northern',
  borderCrossings: ['Malaba'],
  truckPlate: 'kda 123a',
  trailerPlate: 'ZD 4567',
  driver: { name: 'Juma Otieno', phone: '+254712345678', licenceNumber: 'DL-123456' },
  containerNumbers: ['MSKU1234565'],
  billOfLadingNumber: 'MAEU240612345',
  plannedDeparture: '2026-06-01T06:00:00Z',
  plannedArrival: '2026-06-04T18:00:00Z',
  ...over,
});

async function newShipment(who: User | Identity = 'companyA', over: Record<string, unknown> = {}): Promise<Shipment> {
  const r = await call<Shipment>(who, 'POST', '/api/shipments/company', input(over));
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

/** Puts a shipment straight into a state (the endpoint sample below walks from there). */
async function setState(id: number, status: ShipmentStatus, statusBeforeHold: ShipmentStatus | null = null) {
  await adapters.db.orm.update(shipments).set({ status, statusBeforeHold }).where(eq(shipments.id, id));
}

describe('POST /shipments/company', () => {
  it("creates a draft for the caller's company, normalized, with its first history entry and an audit row", async () => {
    const s = await newShipment();
    expect(s).toMatchObject({
      companyId: 101,
      status: 'draft',
      truckPlate: 'KDA 123A',
      containerNumbers: ['MSKU1234565'],
      createdBy: { userId: 5 },
    });
    const d = await call<ShipmentDetail>('companyA', 'GET', `/api/shipments/${s.id}`);
    expect(d.body.statusHistory).toEqual([
      expect.objectContaining({ from: null, to: 'draft', by: { userId: 5, email: 'a@company-a.test' } }),
    ]);
    const trail = await audit.forEntity(adapters.db.orm, 'shipment', s.id);
    expect(trail.map((a) => a.action)).toEqual(['shipment.create']);
  });

  it.each([
    ['reference', { reference: '' }],
    ['containerNumbers.0', { containerNumbers: ['MSKU1234566'] }],
    ['plannedArrival', { plannedArrival: '2026-05-01T00:00:00Z' }],
    ['origin.country', { origin: { place: 'Mombasa', country: 'XX' } }],
    ['driver.phone', { driver: { name: 'A', phone: 'call me' } }],
  ])('answers 400 naming %s', async (field, over) => {
    const r = await call<ErrorBody>('companyA', 'POST', '/api/shipments/company', input(over));
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain(field);
  });

  it('answers 404 for cargo the company does not have (as for unknown cargo), 409 for a reference it already used', async () => {
    const r = await call<ErrorBody>('companyA', 'POST', '/api/shipments/company', input({ cargoIds: [999999] }));
    expect(r.status).toBe(404);
    expect(r.body.error.message).toBe('Cargo 999999 not found');
    await newShipment('companyA', { reference: 'DUP-1' });
    const dup = await call<ErrorBody>('companyA', 'POST', '/api/shipments/company', input({ reference: 'DUP-1' }));
    expect(dup.status).toBe(409);
    expect((await call('companyB', 'POST', '/api/shipments/company', input({ reference: 'DUP-1' }))).status).toBe(201);
  });

  it('answers 403 to a platform admin without a company', async () => {
    expect((await call('admin', 'POST', '/api/shipments/company', input())).status).toBe(403);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: create, invalidBody: { reference: 7 } });
});

describe('GET /shipments/company and GET /shipments/admin', () => {
  it("lists only the caller's company's shipments, filtered and paginated", async () => {
    await newShipment('companyB', { reference: 'B-ONLY', truckPlate: 'T 123 ABC', containerNumbers: ['TGHU9876542'] });
    const a = await call<{ items: Shipment[]; total: number }>('companyA', 'GET', '/api/shipments/company?limit=500');
    expect(a.status).toBe(200);
    expect(a.body.items.length).toBeGreaterThan(0);
    expect(a.body.items.every((s) => s.companyId === 101)).toBe(true);
    const b = await call<{ items: Shipment[] }>('companyB', 'GET', '/api/shipments/company?containerNumber=tghu9876542&truckPlate=T%20123');
    expect(b.body.items.map((s) => s.reference)).toEqual(['B-ONLY']);
    const page = await call<{ items: Shipment[]; total: number; limit: number }>(
      'companyA',
      'GET',
      '/api/shipments/company?limit=1&offset=1',
    );
    expect(page.body.items).toHaveLength(1);
    expect(page.body.total).toBe(a.body.total);
    const drafts = await call<{ items: Shipment[] }>('companyA', 'GET', '/api/shipments/company?status=draft&status=booked');
    expect(drafts.body.items.every((s) => ['draft', 'booked'].includes(s.status))).toBe(true);
  });

  it('answers 400 naming a bad filter', async () => {
    const r = await call<ErrorBody>('companyA', 'GET', '/api/shipments/company?status=lost');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('status');
  });

  it('gives the association every company, filterable by company', async () => {
    const all = await call<{ items: Shipment[] }>('analyst', 'GET', '/api/shipments/admin?limit=500');
    expect(new Set(all.body.items.map((s) => s.companyId))).toEqual(new Set([101, 202]));
    const b = await call<{ items: Shipment[] }>('officer', 'GET', '/api/shipments/admin?companyId=202');
    expect(b.body.items.length).toBeGreaterThan(0);
    expect(b.body.items.every((s) => s.companyId === 202)).toBe(true);
    expect(
      (
        await call<{ total: number }>(
          'officer',
          'GET',
          `/api/shipments/admin?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        )
      ).body.total,
    ).toBe(0);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: listCompany });
  runCommonRouteTests({ app: () => svc.app, endpoint: listAdmin });
});

describe('GET /shipments/{shipmentId} and PUT /shipments/{shipmentId}', () => {
  it('shows a shipment to its company and the association; another company gets 404, an unknown id 404', async () => {
    const s = await newShipment();
    expect((await call('companyA', 'GET', `/api/shipments/${s.id}`)).status).toBe(200);
    expect((await call('officer', 'GET', `/api/shipments/${s.id}`)).status).toBe(200);
    expect((await call('companyB', 'GET', `/api/shipments/${s.id}`)).status).toBe(404);
    expect((await call('companyA', 'GET', '/api/shipments/99999999')).status).toBe(404);
    expect((await call<ErrorBody>('companyA', 'GET', '/api/shipments/abc')).body.error.message).toContain('shipmentId');
  });

  it('replaces the details (audited with before and after), 404 for another company, 409 once delivered', async () => {
    const s = await newShipment();
    const r = await call<Shipment>('companyA', 'PUT', `/api/shipments/${s.id}`, input({ reference: s.reference, truckPlate: 'KDB 999Z' }));
    expect(r.status).toBe(200);
    expect(r.body.truckPlate).toBe('KDB 999Z');
    const trail = await audit.forEntity(adapters.db.orm, 'shipment', s.id);
    expect(trail[0]).toMatchObject({
      action: 'shipment.update',
      before: expect.objectContaining({ truckPlate: 'KDA 123A' }),
      after: expect.objectContaining({ truckPlate: 'KDB 999Z' }),
    });
    expect((await call('companyB', 'PUT', `/api/shipments/${s.id}`, input())).status).toBe(404);
    expect((await call('companyA', 'PUT', '/api/shipments/99999999', input())).status).toBe(404);
    await setState(s.id, 'delivered');
    const closed = await call<ErrorBody>('companyA', 'PUT', `/api/shipments/${s.id}`, input());
    expect(closed.status).toBe(409);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: get });
  runCommonRouteTests({ app: () => svc.app, endpoint: update, params: { shipmentId: '1' }, invalidBody: { reference: '' } });
});

describe('PATCH /shipments/{shipmentId}/status', () => {
  it('walks draft → booked → in_transit → at_border → cleared → delivered with the right roles, recording who and when', async () => {
    const s = await newShipment();
    const url = `/api/shipments/${s.id}/status`;
    expect((await call('companyA', 'PATCH', url, { status: 'booked' })).status).toBe(200);
    const moving = await call<Shipment>(dispatcherA, 'PATCH', url, { status: 'in_transit' });
    expect(moving.body.actualDeparture).not.toBeNull();
    expect((await call('companyA', 'PATCH', url, { status: 'at_border' })).status).toBe(200);
    expect((await call('agentA', 'PATCH', url, { status: 'cleared' })).status).toBe(200);
    const done = await call<Shipment>('companyA', 'PATCH', url, { status: 'delivered' });
    expect(done.body).toMatchObject({ status: 'delivered', actualArrival: expect.any(String) });
    const d = await call<ShipmentDetail>('officer', 'GET', `/api/shipments/${s.id}`);
    expect(d.body.statusHistory.map((h) => `${h.from}>${h.to}:${h.by.userId}`)).toEqual([
      'null>draft:5',
      'draft>booked:5',
      'booked>in_transit:40',
      'in_transit>at_border:5',
      'at_border>cleared:6',
      'cleared>delivered:5',
    ]);
    const trail = await audit.forEntity(adapters.db.orm, 'shipment', s.id);
    expect(trail.filter((a) => a.action === 'shipment.status')).toHaveLength(5);
    expect(trail[0]).toMatchObject({ before: { status: 'cleared' }, after: { status: 'delivered' }, actorUserId: 5 });
  });

  it('holds and resumes to the state before the hold, through the allowed-transitions endpoint too', async () => {
    const s = await newShipment();
    await setState(s.id, 'at_border');
    const held = await call<Shipment>('officer', 'PATCH', `/api/shipments/${s.id}/status`, {
      status: 'on_hold',
      reason: 'Seal mismatch at Malaba',
    });
    expect(held.body).toMatchObject({ status: 'on_hold', statusBeforeHold: 'at_border' });
    const offer = await call<{ current: string; allowed: string[] }>(
      'companyA',
      'GET',
      `/api/shipments/${s.id}/allowed-status-transitions`,
    );
    expect(offer.body).toEqual({ current: 'on_hold', statusBeforeHold: 'at_border', allowed: ['at_border', 'cancelled'] });
    const wrong = await call<ErrorBody>('companyA', 'PATCH', `/api/shipments/${s.id}/status`, { status: 'in_transit' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.error).toMatchObject({
      code: 'INVALID_TRANSITION',
      details: { current: 'on_hold', allowed: ['at_border', 'cancelled'] },
    });
    const resumed = await call<Shipment>('companyA', 'PATCH', `/api/shipments/${s.id}/status`, { status: 'at_border' });
    expect(resumed.body).toMatchObject({ status: 'at_border', statusBeforeHold: null });
  });

  it('matches the transitions table through the endpoint for a sample of states × roles × targets', async () => {
    const roles: Role[] = ['company_user', 'dispatcher', 'clearing_agent', 'association_officer'];
    const s = await newShipment();
    let checked = 0;
    for (const from of ShipmentStatus.options) {
      const before = from === 'on_hold' ? 'in_transit' : null;
      for (const [i, role] of roles.entries()) {
        // a different slice of targets per role keeps the sample broad and the run short
        const targets = ShipmentStatus.options.filter((_, j) => (j + i) % 4 === 0);
        for (const to of targets) {
          await setState(s.id, from, before);
          const who = userWith([role], role === 'association_officer' ? null : 101, 50 + i);
          const r = await call<ErrorBody>(who, 'PATCH', `/api/shipments/${s.id}/status`, { status: to, reason: 'sample' });
          const expected = allowedShipmentMoves(from, [role], before);
          if (expected.includes(to)) expect(r.status, `${role} ${from}→${to}`).toBe(200);
          else {
            expect(r.status, `${role} ${from}→${to}`).toBe(409);
            expect(r.body.error.details).toEqual({ current: from, allowed: expected });
          }
          checked++;
        }
      }
    }
    expect(checked).toBe(ShipmentStatus.options.length * roles.length * 2);
  });

  it('offers each role its own next states', async () => {
    const s = await newShipment();
    await setState(s.id, 'at_border');
    const agent = await call<{ allowed: string[] }>('agentA', 'GET', `/api/shipments/${s.id}/allowed-status-transitions`);
    expect(agent.body.allowed.sort()).toEqual(['cleared', 'on_hold']);
    const user = await call<{ allowed: string[] }>('companyA', 'GET', `/api/shipments/${s.id}/allowed-status-transitions`);
    expect(user.body.allowed).toEqual([]);
    const analyst = await call<{ allowed: string[] }>('analyst', 'GET', `/api/shipments/${s.id}/allowed-status-transitions`);
    expect(analyst.body.allowed).toEqual([]);
    expect((await call('companyB', 'GET', `/api/shipments/${s.id}/allowed-status-transitions`)).status).toBe(404);
    expect((await call('companyA', 'GET', '/api/shipments/99999999/allowed-status-transitions')).status).toBe(404);
  });

  it('answers 400 naming reason when cancelling or holding without one, 404 for another company or no such shipment', async () => {
    const s = await newShipment();
    const r = await call<ErrorBody>('companyA', 'PATCH', `/api/shipments/${s.id}/status`, { status: 'cancelled' });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('reason');
    expect((await call('companyB', 'PATCH', `/api/shipments/${s.id}/status`, { status: 'booked' })).status).toBe(404);
    expect((await call('companyA', 'PATCH', '/api/shipments/99999999/status', { status: 'booked' })).status).toBe(404);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: changeStatus, invalidBody: { status: 'lost' } });
  runCommonRouteTests({ app: () => svc.app, endpoint: allowed });
});

describe('POST /shipments/{shipmentId}/progress-updates', () => {
  it('records track details on a moving shipment and shows them oldest first', async () => {
    const s = await newShipment();
    await setState(s.id, 'in_transit');
    const url = `/api/shipments/${s.id}/progress-updates`;
    const later = await call<ProgressUpdate>('companyA', 'POST', url, {
      at: '2026-06-02T10:00:00Z',
      kind: 'border_arrival',
      location: { name: 'Malaba OSBP', latitude: 0.6353, longitude: 34.2759 },
      note: 'Queue 3 km',
    });
    expect(later.status).toBe(201);
    expect(later.body).toMatchObject({
      kind: 'border_arrival',
      location: { name: 'Malaba OSBP', latitude: 0.6353 },
      recordedBy: { userId: 5 },
    });
    await call('companyA', 'POST', url, { at: '2026-06-01T18:00:00Z', location: { name: 'Nakuru weighbridge' } });
    const d = await call<ShipmentDetail>('companyA', 'GET', `/api/shipments/${s.id}`);
    expect(d.body.progress.map((p) => p.location.name)).toEqual(['Nakuru weighbridge', 'Malaba OSBP']);
  });

  it('answers 409 on a draft, 400 naming the location or a future time, 404 for another company', async () => {
    const s = await newShipment();
    const url = `/api/shipments/${s.id}/progress-updates`;
    expect((await call<ErrorBody>('companyA', 'POST', url, { at: '2026-06-01T18:00:00Z', location: { name: 'Voi' } })).status).toBe(409);
    await setState(s.id, 'booked');
    const noCoords = await call<ErrorBody>('companyA', 'POST', url, { at: '2026-06-01T18:00:00Z', location: { latitude: 1 } });
    expect(noCoords.status).toBe(400);
    expect(noCoords.body.error.message).toContain('location');
    const future = await call<ErrorBody>('companyA', 'POST', url, {
      at: new Date(Date.now() + 3_600_000).toISOString(),
      location: { name: 'Voi' },
    });
    expect(future.status).toBe(400);
    expect(future.body.error.message).toContain('at');
    expect((await call('companyB', 'POST', url, { at: '2026-06-01T18:00:00Z', location: { name: 'Voi' } })).status).toBe(404);
    expect(
      (
        await call('companyA', 'POST', '/api/shipments/99999999/progress-updates', {
          at: '2026-06-01T18:00:00Z',
          location: { name: 'Voi' },
        })
      ).status,
    ).toBe(404);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: addProgress, invalidBody: { at: 'yesterday' } });
});

describe('POST /shipments/{shipmentId}/documents', () => {
  const upload = async (who: User, bytes: Uint8Array, kind = 'bill_of_lading', contentType = 'application/pdf') => {
    const body = await multipart({ kind }, { filename: 'doc.pdf', contentType, bytes });
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/documents/upload',
      headers: { ...body.headers, ...(await asUser(testUsers[who])) },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(201);
    return res.json<DocumentWithLink>();
  };

  it('attaches an uploaded document (idempotent, audited) or uploads and attaches in one step', async () => {
    const s = await newShipment();
    const doc = await upload('companyA', await billOfLadingPdf());
    const r = await call<DocumentWithLink>('companyA', 'POST', `/api/shipments/${s.id}/documents`, { documentId: doc.id });
    expect(r.status).toBe(201);
    expect(r.body.download.url).toContain(doc.id);
    expect((await call('companyA', 'POST', `/api/shipments/${s.id}/documents`, { documentId: doc.id })).status).toBe(201);
    const body = await multipart(
      { kind: 'delivery_note' },
      { filename: 'pod.pdf', contentType: 'application/pdf', bytes: await textPdf(['Proof of delivery']) },
    );
    const one = await svc.app.inject({
      method: 'POST',
      url: `/api/shipments/${s.id}/documents`,
      headers: { ...body.headers, ...(await asUser(testUsers.agentA)) },
      payload: body.payload,
    });
    expect(one.statusCode).toBe(201);
    expect(one.json<DocumentWithLink>()).toMatchObject({
      kind: 'delivery_note',
      ownerType: 'shipment',
      ownerId: String(s.id),
      companyId: 101,
    });
    const d = await call<ShipmentDetail>('companyA', 'GET', `/api/shipments/${s.id}`);
    expect(d.body.documents.map((x) => x.kind)).toEqual(['bill_of_lading', 'delivery_note']);
    const trail = await audit.forEntity(adapters.db.orm, 'shipment', s.id);
    expect(trail.filter((a) => a.action === 'shipment.document_attached')).toHaveLength(2);
  });

  it("answers 404 for another company's document or shipment, 400 naming documentId", async () => {
    const s = await newShipment();
    const bDoc = await upload('companyB', await billOfLadingPdf());
    expect((await call('companyA', 'POST', `/api/shipments/${s.id}/documents`, { documentId: bDoc.id })).status).toBe(404);
    expect((await call('companyB', 'POST', `/api/shipments/${s.id}/documents`, { documentId: bDoc.id })).status).toBe(404);
    expect((await call('companyA', 'POST', '/api/shipments/99999999/documents', { documentId: bDoc.id })).status).toBe(404);
    const bad = await call<ErrorBody>('companyA', 'POST', `/api/shipments/${s.id}/documents`, { documentId: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('documentId');
  });

  it('answers 403 to the association (documents are attached by the company)', async () => {
    expect(
      (await call('officer', 'POST', '/api/shipments/1/documents', { documentId: '00000000-0000-4000-8000-000000000000' })).status,
    ).toBe(403);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: attachDocument });

  describe('POST /shipments/process-transport-document', () => {
    it('reads an uploaded bill of lading and a CMR', async () => {
      const bl = await upload('companyA', await billOfLadingPdf());
      const r = await call<TransportDocumentExtraction>('companyA', 'POST', '/api/shipments/process-transport-document', {
        documentId: bl.id,
      });
      expect(r.status).toBe(200);
      expect(r.body.fields.billOfLadingNumber.value).toBe('MAEU240612345');
      expect(r.body.fields.containerNumbers.value).toEqual(['MSKU1234565', 'TGHU9876542']);
      const cmr = await upload('companyA', await cmrPdf(), 'cmr');
      const c = await call<TransportDocumentExtraction>('agentA', 'POST', '/api/shipments/process-transport-document', {
        documentId: cmr.id,
      });
      expect(c.body).toMatchObject({ documentType: 'cmr', fields: { cmrNumber: { value: 'KE-2406-00871' } } });
    });

    it("answers 422 for a scan without text, 415 for an image, 404 for another company's document, 400 naming documentId", async () => {
      const scan = await upload('companyA', await imageOnlyPdf());
      const s = await call<ErrorBody>('companyA', 'POST', '/api/shipments/process-transport-document', { documentId: scan.id });
      expect(s.status).toBe(422);
      expect(s.body.error).toMatchObject({ code: 'UNPROCESSABLE', details: { reason: 'no_text_layer' } });
      const photo = await upload('companyA', png(), 'photo', 'image/png');
      expect((await call('companyA', 'POST', '/api/shipments/process-transport-document', { documentId: photo.id })).status).toBe(415);
      expect((await call('companyB', 'POST', '/api/shipments/process-transport-document', { documentId: scan.id })).status).toBe(404);
      const bad = await call<ErrorBody>('companyA', 'POST', '/api/shipments/process-transport-document', {});
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toContain('documentId');
    });

    runCommonRouteTests({ app: () => svc.app, endpoint: processTransportDocument, invalidBody: { documentId: 12 } });
  });
});

it('every role the contract lets change a status is covered by the transitions table or gets nothing', () => {
  for (const role of allRoles)
    for (const s of ShipmentStatus.options) expect(Array.isArray(allowedShipmentMoves(s, [role], null))).toBe(true);
});
