import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cargoEndpoints,
  CargoStatus,
  type Cargo,
  type CargoDetail,
  type DocumentWithLink,
  type ErrorBody,
  type Role,
  type Shipment,
  allowedCargoMoves,
} from '@corridor/contracts';
import { unavailable, type Identity } from '@corridor/platform';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers, userWith } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type OpsApiService } from '../app';
import { audit } from '../audit/audit';
import { cargos } from '../db/schema';
import { pdfTextReader, type PdfTextReader } from '../documents/pdf-text';
import { inThreadIdfReaders } from './idf-reader';
import { localStorage } from '../documents/storage';
import { noScanner } from '../documents/virus-scan';
import { idfPdf, sampleIdf } from '../../test/fixtures/idf-documents';
import { multipart } from '../../test/fixtures/multipart';
import { corruptPdf, imageOnlyPdf, textPdf } from '../../test/fixtures/sample-files';

let adapters: TestAdapters;
let svc: OpsApiService;
let dir: string;
/** The real PDF reader in this thread (the parser processes: src/parsers), switchable to "not ready" to see the 503. */
let parserDown = false;
const real = pdfTextReader();
const switchable: PdfTextReader = {
  ready: async () => (parserDown ? Promise.reject(unavailable('The PDF reader')) : real.ready()),
  read: async (b) => (parserDown ? Promise.reject(unavailable('The PDF reader')) : real.read(b)),
};

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  dir = await mkdtemp(join(tmpdir(), 'ops-cargo-'));
  svc = await build({
    ...adapters,
    logger: adapters.logger,
    identitySecret: TEST_IDENTITY_SECRET,
    readers: inThreadIdfReaders(switchable),
    documents: { storage: localStorage(dir), scanner: noScanner, maxBytes: 1 << 20 },
  });
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
  await rm(dir, { recursive: true, force: true });
});

const [listCompany, processIdf, get, attachDocument, changeStatus, listAdmin, correct] = cargoEndpoints;
type User = keyof typeof testUsers;

async function call<T = unknown>(who: User | Identity, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: unknown) {
  const res = await svc.app.inject({
    method,
    url,
    headers: await asUser(typeof who === 'string' ? testUsers[who] : who),
    payload: payload as never,
  });
  return { status: res.statusCode, body: res.json() as T };
}

async function upload(who: User, bytes: Uint8Array, contentType = 'application/pdf', filename = 'idf.pdf'): Promise<DocumentWithLink> {
  const body = await multipart({ kind: 'idf' }, { filename, contentType, bytes });
  const res = await svc.app.inject({
    method: 'POST',
    url: '/api/documents/upload',
    headers: { ...body.headers, ...(await asUser(testUsers[who])) },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<DocumentWithLink>();
}

let n = 0;
const nextIdf = () => `24NBOIM${String(500000000 + ++n)}`;

async function cargoFromPdf(who: User = 'companyA', over: Parameters<typeof sampleIdf>[0] = {}): Promise<Cargo> {
  const doc = await upload(who, await idfPdf(sampleIdf({ idfNumber: nextIdf(), ...over })));
  const r = await call<Cargo>(who, 'POST', '/api/cargos/process-idf', { documentId: doc.id });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

describe('POST /cargos/process-idf', () => {
  it('creates a submitted cargo from an IDF PDF, with the extraction report, the source document linked and an audit row', async () => {
    const c = await cargoFromPdf();
    expect(c).toMatchObject({
      companyId: 101,
      status: 'submitted',
      importer: { name: 'Athi River Importers Ltd', pin: 'P053456789Z' },
      consignor: 'Guangzhou Auto Parts Co. Ltd',
      countryOfOrigin: 'China',
      portOfDischarge: 'Mombasa',
      invoice: { value: 48750, currency: 'USD' },
      extraction: { format: 'pdf', valid: true },
    });
    expect(c.lineItems).toHaveLength(3);
    expect(c.extraction.fields.importerPin).toMatchObject({ valid: true, confidence: expect.any(Number) });
    const d = await call<CargoDetail>('companyA', 'GET', `/api/cargos/${c.id}`);
    expect(d.body.documents.map((x) => x.id)).toEqual([c.sourceDocumentId]);
    expect(d.body.statusHistory).toEqual([expect.objectContaining({ from: null, to: 'submitted' })]);
    expect((await audit.forEntity(adapters.db.orm, 'cargo', c.id)).map((a) => a.action)).toEqual(['cargo.create_from_idf']);
  });

  it('creates cargo from JSON and CSV exports', async () => {
    const json = {
      idfNumber: nextIdf(),
      importer: { name: 'Athi River Importers Ltd', pin: 'P053456789Z' },
      consignor: 'Tata Motors Ltd',
      countryOfOrigin: 'India',
      portOfDischarge: 'Mombasa',
      invoice: { value: 30500, currency: 'USD' },
      items: [{ hsCode: '8704.21.90', description: 'Truck', quantity: 1, unit: 'U', value: 30500 }],
    };
    const j = await upload('agentA', Buffer.from(JSON.stringify(json)), 'application/json', 'idf.json');
    const rj = await call<Cargo>('agentA', 'POST', '/api/cargos/process-idf', { documentId: j.id });
    expect(rj.status).toBe(201);
    expect(rj.body.extraction.format).toBe('json');
    const csv = `idf_number,importer_name,importer_pin,consignor,country_of_origin,port_of_discharge,currency,invoice_value,hs_code,description,quantity,unit,value\n${nextIdf()},Msasani Importers,123456789,Acme,UAE,Dar es Salaam,USD,100,3004.90.00,Medicines,10,BOX,100\n`;
    const c = await upload('companyB', Buffer.from(csv), 'text/csv', 'idf.csv');
    const rc = await call<Cargo>('companyB', 'POST', '/api/cargos/process-idf', { documentId: c.id });
    expect(rc.status).toBe(201);
    expect(rc.body).toMatchObject({ companyId: 202, extraction: { format: 'csv', valid: true }, portOfDischarge: 'Dar es Salaam' });
  });

  it('answers 409 for an IDF number the company already has', async () => {
    const idfNumber = nextIdf();
    await cargoFromPdf('companyA', { idfNumber });
    const again = await upload('companyA', await idfPdf(sampleIdf({ idfNumber })));
    const r = await call<ErrorBody>('companyA', 'POST', '/api/cargos/process-idf', { documentId: again.id });
    expect(r.status).toBe(409);
    expect(r.body.error.details).toMatchObject({ idfNumber });
  });

  it('answers 422 with the reason and what to check for a scanned (image-only) IDF and a corrupt one', async () => {
    const scan = await upload('companyA', await imageOnlyPdf());
    const s = await call<ErrorBody>('companyA', 'POST', '/api/cargos/process-idf', { documentId: scan.id });
    expect(s.status).toBe(422);
    expect(s.body.error.message).toMatch(/no text layer/);
    expect(s.body.error.details).toMatchObject({ reason: 'no_text_layer', check: expect.stringMatching(/document quality/) });
    const bad = await upload('companyA', corruptPdf());
    const b = await call<ErrorBody>('companyA', 'POST', '/api/cargos/process-idf', { documentId: bad.id });
    expect(b.status).toBe(422);
    expect(b.body.error.details).toMatchObject({ reason: 'unreadable_pdf' });
    const notIdf = await upload('companyA', await textPdf(['Minutes of the transporters meeting', 'Attendance: 12 members present today']));
    const m = await call<ErrorBody>('companyA', 'POST', '/api/cargos/process-idf', { documentId: notIdf.id });
    expect(m.status).toBe(422);
    expect(m.body.error.details).toMatchObject({ reason: 'missing_fields', missing: ['idfNumber', 'importerName'] });
  });

  it('answers 503 while the PDF reader is not ready', async () => {
    const doc = await upload('companyA', await idfPdf(sampleIdf({ idfNumber: nextIdf() })));
    parserDown = true;
    try {
      const r = await call<ErrorBody>('companyA', 'POST', '/api/cargos/process-idf', { documentId: doc.id });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('UNAVAILABLE');
    } finally {
      parserDown = false;
    }
    expect((await call('companyA', 'POST', '/api/cargos/process-idf', { documentId: doc.id })).status).toBe(201);
  });

  it("answers 404 for another company's document or none, 400 naming documentId", async () => {
    const doc = await upload('companyB', await idfPdf(sampleIdf({ idfNumber: nextIdf() })));
    expect((await call('companyA', 'POST', '/api/cargos/process-idf', { documentId: doc.id })).status).toBe(404);
    expect((await call('companyA', 'POST', '/api/cargos/process-idf', { documentId: '00000000-0000-4000-8000-000000000000' })).status).toBe(
      404,
    );
    const bad = await call<ErrorBody>('companyA', 'POST', '/api/cargos/process-idf', { documentId: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('documentId');
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: processIdf, invalidBody: { documentId: 5 } });
});

describe('GET /cargos/company, GET /cargos, GET /cargos/{cargoId}', () => {
  it("lists the caller's company's cargo only, with filters", async () => {
    const c = await cargoFromPdf('companyA');
    const a = await call<{ items: Cargo[]; total: number }>('companyA', 'GET', '/api/cargos/company?limit=500');
    expect(a.body.items.length).toBeGreaterThan(0);
    expect(a.body.items.every((x) => x.companyId === 101)).toBe(true);
    const one = await call<{ items: Cargo[] }>('agentA', 'GET', `/api/cargos/company?idfNumber=${c.idfNumber}&status=submitted`);
    expect(one.body.items.map((x) => x.id)).toEqual([c.id]);
    expect((await call<{ items: Cargo[] }>('companyB', 'GET', `/api/cargos/company?idfNumber=${c.idfNumber}`)).body.items).toEqual([]);
    expect((await call('admin', 'GET', '/api/cargos/company')).status).toBe(403);
    const bad = await call<ErrorBody>('companyA', 'GET', '/api/cargos/company?status=lost');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('status');
  });

  it('gives the association every company, filterable by company and importer PIN', async () => {
    const all = await call<{ items: Cargo[] }>('analyst', 'GET', '/api/cargos?limit=500');
    expect(new Set(all.body.items.map((x) => x.companyId))).toEqual(new Set([101, 202]));
    const tz = await call<{ items: Cargo[] }>('officer', 'GET', '/api/cargos?companyId=202&importerPin=123456789');
    expect(tz.body.items.length).toBe(1);
  });

  it('shows one cargo to its company and the association only', async () => {
    const c = await cargoFromPdf('companyA');
    expect((await call('companyA', 'GET', `/api/cargos/${c.id}`)).status).toBe(200);
    expect((await call('officer', 'GET', `/api/cargos/${c.id}`)).status).toBe(200);
    expect((await call('companyB', 'GET', `/api/cargos/${c.id}`)).status).toBe(404);
    expect((await call('companyA', 'GET', '/api/cargos/99999999')).status).toBe(404);
    expect((await call<ErrorBody>('companyA', 'GET', '/api/cargos/zero')).body.error.message).toContain('cargoId');
  });

  it("lets a shipment carry its own company's cargo only", async () => {
    const c = await cargoFromPdf('companyA');
    const body = {
      reference: `CARGO-${c.id}`,
      origin: { place: 'Mombasa', country: 'KE' },
      destination: { place: 'Nairobi', country: 'KE' },
      cargoIds: [c.id],
    };
    const ok = await call<Shipment>('companyA', 'POST', '/api/shipments/company', body);
    expect(ok.status).toBe(201);
    expect(ok.body.cargoIds).toEqual([c.id]);
    // another company's cargo answers like an unknown one
    expect((await call('companyB', 'POST', '/api/shipments/company', body)).status).toBe(404);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: listCompany });
  runCommonRouteTests({ app: () => svc.app, endpoint: listAdmin });
  runCommonRouteTests({ app: () => svc.app, endpoint: get });
});

describe('PUT /cargos/{cargoId}/status', () => {
  it('validates, releases and delivers with the right roles, recording history and audit', async () => {
    const c = await cargoFromPdf('companyA');
    const url = `/api/cargos/${c.id}/status`;
    expect((await call<Cargo>('agentA', 'PUT', url, { status: 'validated' })).body.status).toBe('validated');
    expect((await call<Cargo>('agentA', 'PUT', url, { status: 'released' })).body.status).toBe('released');
    expect((await call<Cargo>('companyA', 'PUT', url, { status: 'delivered' })).body.status).toBe('delivered');
    const d = await call<CargoDetail>('officer', 'GET', `/api/cargos/${c.id}`);
    expect(d.body.statusHistory.map((h) => `${h.from}>${h.to}`)).toEqual([
      'null>submitted',
      'submitted>validated',
      'validated>released',
      'released>delivered',
    ]);
    const trail = await audit.forEntity(adapters.db.orm, 'cargo', c.id);
    expect(trail[0]).toMatchObject({
      action: 'cargo.status',
      before: { status: 'released' },
      after: { status: 'delivered' },
      actorUserId: 5,
    });
  });

  it('answers 409 INVALID_TRANSITION with the allowed states, and 409 CONFLICT naming the failed checks of an invalid IDF', async () => {
    const c = await cargoFromPdf('companyA');
    const denied = await call<ErrorBody>('companyA', 'PUT', `/api/cargos/${c.id}/status`, { status: 'validated' });
    expect(denied.status).toBe(409);
    expect(denied.body.error).toMatchObject({ code: 'INVALID_TRANSITION', details: { current: 'submitted', allowed: ['cancelled'] } });
    const bad = await cargoFromPdf('companyA', { importerPin: 'NOTAPIN1' });
    const r = await call<ErrorBody>('agentA', 'PUT', `/api/cargos/${bad.id}/status`, { status: 'validated' });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({
      code: 'CONFLICT',
      details: { failedChecks: { importerPin: [expect.stringMatching(/KRA PIN/)] } },
    });
    expect(
      (await call<Cargo>('agentA', 'PUT', `/api/cargos/${bad.id}/status`, { status: 'rejected', reason: 'Importer PIN unreadable' })).body
        .status,
    ).toBe('rejected');
  });

  it('matches the transitions table through the endpoint for a sample of states × roles', async () => {
    const c = await cargoFromPdf('companyA');
    const roles: Role[] = ['company_user', 'clearing_agent', 'dispatcher', 'association_officer'];
    for (const from of CargoStatus.options) {
      for (const [i, role] of roles.entries()) {
        for (const to of CargoStatus.options.filter((_, j) => (j + i) % 3 === 0)) {
          await adapters.db.orm.update(cargos).set({ status: from }).where(eq(cargos.id, c.id));
          const who = userWith([role], role === 'association_officer' ? null : 101, 70 + i);
          const r = await call<ErrorBody>(who, 'PUT', `/api/cargos/${c.id}/status`, { status: to, reason: 'sample' });
          const expected = allowedCargoMoves(from, [role]);
          expect(r.status, `${role} ${from}→${to}`).toBe(expected.includes(to) ? 200 : 409);
          if (!expected.includes(to)) expect(r.body.error.details).toEqual({ current: from, allowed: expected });
        }
      }
    }
  });

  it('answers 400 naming reason for a rejection without one, 404 for another company or no such cargo', async () => {
    const c = await cargoFromPdf('companyA');
    const r = await call<ErrorBody>('agentA', 'PUT', `/api/cargos/${c.id}/status`, { status: 'rejected' });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toContain('reason');
    expect((await call('companyB', 'PUT', `/api/cargos/${c.id}/status`, { status: 'cancelled', reason: 'x' })).status).toBe(404);
    expect((await call('agentA', 'PUT', '/api/cargos/99999999/status', { status: 'validated' })).status).toBe(404);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: changeStatus, invalidBody: { status: 'lost' } });
});

describe('PATCH /cargos/{cargoId}/fields', () => {
  it('corrects a field the checks refused: the checks run again, the cargo then validates, and the audit keeps old and new values', async () => {
    const c = await cargoFromPdf('companyA', { importerPin: 'NOTAPIN1' });
    expect(c.extraction).toMatchObject({
      valid: false,
      fields: { importerPin: { valid: false, issues: [expect.stringMatching(/KRA PIN/)] } },
    });
    const r = await call<Cargo>('companyA', 'PATCH', `/api/cargos/${c.id}/fields`, { importerPin: 'p 051234567x' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.importer.pin).toBe('P051234567X');
    expect(r.body.extraction).toMatchObject({
      valid: true,
      fields: { importerPin: { value: 'P051234567X', confidence: 1, valid: true, issues: [] } },
    });
    // the other fields are as read
    expect(r.body.extraction.fields.idfNumber).toEqual(c.extraction.fields.idfNumber);
    expect((await call<Cargo>('agentA', 'PUT', `/api/cargos/${c.id}/status`, { status: 'validated' })).body.status).toBe('validated');
    const trail = await audit.forEntity(adapters.db.orm, 'cargo', c.id);
    expect(trail.find((a) => a.action === 'cargo.correct')).toMatchObject({
      before: { importerPin: 'NOTAPIN1', valid: false },
      after: { importerPin: 'P051234567X', valid: true },
      actorUserId: 5,
    });
    // once it has left submitted it is no longer corrected
    const late = await call<ErrorBody>('companyA', 'PATCH', `/api/cargos/${c.id}/fields`, { consignor: 'Someone else' });
    expect(late.status).toBe(409);
    expect(late.body.error).toMatchObject({ code: 'CONFLICT', details: { current: 'validated' } });
  });

  it('checks the totals again when the line items are corrected, and keeps a check failing for a bad value', async () => {
    const c = await cargoFromPdf('companyA');
    const items = c.lineItems.map((it, i) => (i === 0 ? { ...it, value: it.value + 500 } : it));
    const r = await call<Cargo>('agentA', 'PATCH', `/api/cargos/${c.id}/fields`, { lineItems: items });
    expect(r.status).toBe(200);
    expect(r.body.extraction).toMatchObject({
      valid: false,
      fields: {
        lineItems: { valid: true, confidence: 1 },
        invoiceValue: { valid: false, issues: [expect.stringMatching(/add up to 49250/)] },
      },
    });
    const fixed = await call<Cargo>('agentA', 'PATCH', `/api/cargos/${c.id}/fields`, { invoiceValue: 49250 });
    expect(fixed.body).toMatchObject({ invoice: { value: 49250 }, extraction: { valid: true } });
    const bad = await call<Cargo>('agentA', 'PATCH', `/api/cargos/${c.id}/fields`, { currency: 'dollars' });
    expect(bad.body.extraction).toMatchObject({ valid: false, fields: { currency: { value: 'DOLLARS', valid: false } } });
  });

  it('answers 409 for an IDF number the company already has, 404 across companies, 400 for no field or a bad one', async () => {
    const taken = await cargoFromPdf('companyA');
    const c = await cargoFromPdf('companyA');
    const dup = await call<ErrorBody>('companyA', 'PATCH', `/api/cargos/${c.id}/fields`, { idfNumber: taken.idfNumber });
    expect(dup.status).toBe(409);
    expect(dup.body.error.details).toMatchObject({ idfNumber: taken.idfNumber });
    expect((await call('companyB', 'PATCH', `/api/cargos/${c.id}/fields`, { consignor: 'X' })).status).toBe(404);
    expect((await call('companyA', 'PATCH', '/api/cargos/99999999/fields', { consignor: 'X' })).status).toBe(404);
    const none = await call<ErrorBody>('companyA', 'PATCH', `/api/cargos/${c.id}/fields`, {});
    expect(none.status).toBe(400);
    expect(none.body.error.message).toMatch(/at least one field/);
    const neg = await call<ErrorBody>('companyA', 'PATCH', `/api/cargos/${c.id}/fields`, { invoiceValue: -1 });
    expect(neg.status).toBe(400);
    expect(neg.body.error.message).toContain('invoiceValue');
    expect((await call<CargoDetail>('companyA', 'GET', `/api/cargos/${c.id}`)).body.idfNumber).toBe(c.idfNumber);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: correct, invalidBody: { invoiceValue: 'many' } });
});

describe('POST /cargos/{cargoId}/documents', () => {
  it('attaches an uploaded document or uploads and attaches in one step; 404 across companies; 400 naming documentId', async () => {
    const c = await cargoFromPdf('companyA');
    const invoice = await upload('companyA', await textPdf(['Commercial invoice 2024-118']));
    const r = await call<DocumentWithLink>('companyA', 'POST', `/api/cargos/${c.id}/documents`, { documentId: invoice.id });
    expect(r.status).toBe(201);
    const body = await multipart(
      { kind: 'packing_list' },
      { filename: 'pl.pdf', contentType: 'application/pdf', bytes: await textPdf(['Packing list']) },
    );
    const up = await svc.app.inject({
      method: 'POST',
      url: `/api/cargos/${c.id}/documents`,
      headers: { ...body.headers, ...(await asUser(testUsers.agentA)) },
      payload: body.payload,
    });
    expect(up.statusCode).toBe(201);
    expect(up.json<DocumentWithLink>()).toMatchObject({ kind: 'packing_list', ownerType: 'cargo', ownerId: String(c.id) });
    const d = await call<CargoDetail>('companyA', 'GET', `/api/cargos/${c.id}`);
    expect(d.body.documents).toHaveLength(3);
    const other = await upload('companyB', await textPdf(['Another company invoice']));
    expect((await call('companyA', 'POST', `/api/cargos/${c.id}/documents`, { documentId: other.id })).status).toBe(404);
    expect((await call('companyB', 'POST', `/api/cargos/${c.id}/documents`, { documentId: other.id })).status).toBe(404);
    expect((await call('companyA', 'POST', '/api/cargos/99999999/documents', { documentId: invoice.id })).status).toBe(404);
    const bad = await call<ErrorBody>('companyA', 'POST', `/api/cargos/${c.id}/documents`, {});
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('documentId');
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: attachDocument });
});
