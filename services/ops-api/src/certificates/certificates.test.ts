import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PDFDocument, PDFName, PDFDict, PDFRawStream } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import {
  certificatesEndpoints,
  type Certificate,
  type CertificateAction,
  type CertificatePage,
  type CertificateStats,
  type CertificateStatus,
  type CertificateVerification,
  type CertificateViewLinks,
  type IdfExtraction,
  type Notification,
  type NotificationPage,
} from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers, userWith } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import type { Identity } from '@corridor/platform';
import { build, type OpsApiService } from '../app';
import { audit } from '../audit/audit';
import { cargos } from '../db/schema';
import { localStorage } from '../documents/storage';
import { noScanner } from '../documents/virus-scan';
import { canMove, certificateStatuses } from './workflow';

let adapters: TestAdapters;
let svc: OpsApiService;
let dir: string;
const VERIFY_URL = 'https://verify.corridor.test/suc';
const agentA = testUsers.agentA;
const agentB = userWith(['clearing_agent'], 202, 600);

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  dir = await mkdtemp(join(tmpdir(), 'ops-suc-'));
  svc = await build({
    ...adapters,
    logger: adapters.logger,
    identitySecret: TEST_IDENTITY_SECRET,
    documents: { storage: localStorage(dir), scanner: noScanner, maxBytes: 5 * 1024 * 1024 },
    certificates: { verifyUrl: VERIFY_URL },
  });
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
  await rm(dir, { recursive: true, force: true });
});

const [list, stats, get, apply, generate, viewLinks, approve, reject] = certificatesEndpoints;
const call = async (user: Identity | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  svc.app.inject({ method, url, headers: user ? await asUser(user) : {}, payload: payload as never });
const details = (res: { json: () => unknown }) =>
  (res.json() as { error: { code: string; details: Record<string, unknown> & { path?: string }[] } }).error;

let idfSeq = 0;
const extraction = { format: 'json', fields: {}, valid: true, warnings: [] } as unknown as IdfExtraction;
async function cargo(companyId: number, status: 'validated' | 'submitted' | 'released' = 'validated'): Promise<number> {
  idfSeq += 1;
  const [row] = await adapters.db.orm
    .insert(cargos)
    .values({
      companyId,
      idfNumber: `24NBOIM${String(idfSeq).padStart(9, '0')}`,
      importerName: 'Athi River Importers Ltd',
      importerPin: 'P053456789Z',
      consignor: 'Shenzhen Export Co',
      countryOfOrigin: 'CN',
      portOfDischarge: 'Mombasa',
      invoiceValue: 12500,
      currency: 'USD',
      lineItems: [{ hsCode: '8704.21.90', description: 'Light trucks', quantity: 1, unit: 'unit', value: 12500 }],
      extraction,
      status,
      createdByUserId: agentA.userId,
      createdByEmail: agentA.email,
    })
    .returning({ id: cargos.id });
  return row!.id;
}
async function applied(cargoId: number, by: Identity = agentA): Promise<Certificate> {
  const res = await call(by, 'POST', '/api/single-use-certificates/apply', { cargoId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Certificate>();
}
const payment = { paymentReference: 'QWE12RTY34', paymentMethod: 'mpesa' };
const act = (id: number, action: CertificateAction, by?: Identity) =>
  action === 'generate'
    ? call(by ?? agentA, 'POST', `/api/single-use-certificates/${id}/generate-and-upload`, payment)
    : action === 'approve'
      ? call(by ?? testUsers.officer, 'POST', `/api/single-use-certificates/${id}/approve`) // no body: a note is optional
      : call(by ?? testUsers.officer, 'POST', `/api/single-use-certificates/${id}/reject`, {
          reason: 'IDF values do not match the invoice',
        });

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}
async function download(url: string, by: Identity = agentA): Promise<Buffer> {
  const res = await svc.app.inject({ method: 'GET', url, headers: await asUser(by) });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return res.rawPayload;
}

describe('certificate flow: apply → generate-and-upload → view-links → approve', () => {
  it('issues real PDFs, records every step and tells the company', async () => {
    const cargoId = await cargo(101);
    const c = await applied(cargoId);
    expect(c).toMatchObject({
      status: 'applied',
      cargoId,
      companyId: 101,
      fee: { amount: 2500, currency: 'KES' },
      allowedActions: ['generate', 'reject'],
      applicant: { userId: agentA.userId },
    });
    expect(c.number).toBe(`SUC-${String(c.id).padStart(6, '0')}`);
    expect(c.verificationCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    const officerInbox = (await call(testUsers.officer, 'GET', '/api/inbox?type=certificateApplied')).json<NotificationPage>();
    expect(officerInbox.items.some((n) => n.entityId === String(c.id))).toBe(true);

    const gen = await act(c.id, 'generate');
    expect(gen.statusCode, gen.body).toBe(200);
    const submitted = gen.json<Certificate>();
    expect(submitted).toMatchObject({
      status: 'submitted',
      invoiceNumber: `INV-${c.number}`,
      receiptNumber: `RCT-${c.number}`,
      payment: { reference: 'QWE12RTY34', method: 'mpesa' },
    });
    expect(submitted.documents.certificate).toBeTruthy();

    const linksRes = await call(agentA, 'GET', `/api/single-use-certificates/${c.id}/view-links?ttlSeconds=120`);
    expect(linksRes.statusCode, linksRes.body).toBe(200);
    const links = linksRes.json<CertificateViewLinks>();
    expect(links.certificate).toMatchObject({ documentId: submitted.documents.certificate, filename: `${c.number}-certificate.pdf` });
    const expiresIn = new Date(links.certificate.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(60_000);
    expect(expiresIn).toBeLessThanOrEqual(121_000);

    const certificatePdf = await download(links.certificate.url);
    const text = await pdfText(certificatePdf);
    expect(text).toContain(c.verificationCode);
    expect(text).toContain(c.number);
    expect(text).toContain('Pwani Freight Movers Ltd');
    expect(text).toContain(`${VERIFY_URL}/${c.verificationCode}`);
    const parsed = await PDFDocument.load(certificatePdf);
    const xobjects = parsed.getPage(0).node.Resources()?.lookup(PDFName.of('XObject'), PDFDict);
    const images = (xobjects?.values() ?? [])
      .map((ref) => parsed.context.lookup(ref))
      .filter((o): o is PDFRawStream => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image'));
    expect(images.length).toBe(1); // the QR code
    expect(await pdfText(await download(links.invoice.url))).toMatch(new RegExp(`INV-${c.number}[\\s\\S]*KES 2,500\\.00`));
    expect(await pdfText(await download(links.receipt.url))).toContain('QWE12RTY34');
    // the links name the agent they were issued to: anyone else (an officer too) and nobody at all are refused
    for (const other of [testUsers.officer, userWith(['clearing_agent'], 101, 1234)]) {
      const res = await svc.app.inject({ method: 'GET', url: links.certificate.url, headers: await asUser(other) });
      expect(res.statusCode).toBe(403);
      expect(res.json<{ error: { message: string } }>().error.message).toMatch(/another user/);
    }
    expect((await svc.app.inject({ method: 'GET', url: links.certificate.url })).statusCode).toBe(401);

    const ok = await act(c.id, 'approve', testUsers.officer);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<Certificate>()).toMatchObject({
      status: 'approved',
      allowedActions: [],
      decision: { by: { userId: testUsers.officer.userId } },
    });

    const reread = await call(testUsers.companyA, 'GET', `/api/single-use-certificates/${c.id}`);
    expect(reread.statusCode).toBe(200);
    expect(reread.headers['cache-control']).toBe('no-store');
    expect(reread.json<Certificate>().status).toBe('approved');

    const trail = await audit.forEntity(adapters.db.orm, 'single_use_certificate', c.id);
    expect(
      trail
        .map((e) => [e.action, (e.before as { status?: string } | null)?.status ?? null, (e.after as { status: string }).status])
        .reverse(),
    ).toEqual([
      ['certificate.applied', null, 'applied'],
      ['certificate.generated', 'applied', 'submitted'],
      ['certificate.approved', 'submitted', 'approved'],
    ]);

    // the company's user (not the applicant) reads the decision in their inbox
    const inbox = (await call(testUsers.companyA, 'GET', '/api/inbox?type=certificateApproved&unread=true')).json<NotificationPage>();
    const notice = inbox.items.find((n) => n.entityId === String(c.id));
    expect(notice).toMatchObject({
      type: 'certificateApproved',
      companyId: 101,
      readAt: null,
      attributes: { status: 'approved', number: c.number },
    });
    const read = await call(testUsers.companyA, 'PUT', `/api/inbox/${notice!.id}/read`);
    expect(read.json<Notification>().readAt).not.toBeNull();
    const other = (await call(testUsers.companyB, 'GET', '/api/inbox?type=certificateApproved')).json<NotificationPage>();
    expect(other.items.some((n) => n.entityId === String(c.id))).toBe(false);

    const check = await call(null, 'GET', `/api/single-use-certificates/verify/${c.verificationCode}`);
    expect(check.statusCode).toBe(200);
    expect(check.json<CertificateVerification>()).toMatchObject({
      number: c.number,
      status: 'approved',
      valid: true,
      companyName: 'Pwani Freight Movers Ltd',
    });
  });
});

describe('certificate workflow', () => {
  const expected: Record<CertificateStatus, CertificateStatus[]> = {
    applied: ['submitted', 'rejected'],
    submitted: ['approved', 'rejected'],
    approved: [],
    rejected: [],
  };
  it.each(certificateStatuses.flatMap((from) => certificateStatuses.map((to) => [from, to] as const)))('table: %s → %s', (from, to) => {
    expect(canMove(from, to)).toBe(expected[from].includes(to));
  });

  const pathTo: Record<CertificateStatus, CertificateAction[]> = {
    applied: [],
    submitted: ['generate'],
    approved: ['generate', 'approve'],
    rejected: ['reject'],
  };
  const result: Record<CertificateAction, CertificateStatus> = { generate: 'submitted', approve: 'approved', reject: 'rejected' };
  const actions: CertificateAction[] = ['generate', 'approve', 'reject'];
  it.each(certificateStatuses.flatMap((from) => actions.map((action) => [from, action] as const)))(
    'API: %s then %s',
    async (from, action) => {
      const c = await applied(await cargo(101));
      for (const step of pathTo[from]) expect((await act(c.id, step)).statusCode).toBe(200);
      const res = await act(c.id, action);
      const allowedNow = expected[from].includes(result[action]);
      if (allowedNow) {
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json<Certificate>().status).toBe(result[action]);
      } else {
        expect(res.statusCode).toBe(409);
        const e = details(res);
        expect(e.code).toBe('INVALID_TRANSITION');
        expect(e.details).toMatchObject({ current: from, action });
        const done = { generate: 'generated', approve: 'approved', reject: 'rejected' }[action]; // never "rejectd"
        expect(res.json<{ error: { message: string } }>().error.message).toBe(`Certificate ${c.id} is ${from}: it cannot be ${done}`);
        expect((await call(testUsers.officer, 'GET', `/api/single-use-certificates/${c.id}`)).json<Certificate>().status).toBe(from);
      }
    },
  );
});

describe('POST /single-use-certificates/apply', () => {
  it('answers 422 for a cargo that is not validated, naming its status', async () => {
    const res = await call(agentA, 'POST', '/api/single-use-certificates/apply', { cargoId: await cargo(101, 'submitted') });
    expect(res.statusCode).toBe(422);
    expect(details(res)).toMatchObject({ code: 'UNPROCESSABLE', details: { cargoStatus: 'submitted' } });
  });

  it('answers 409 for a cargo already certified, and accepts a new application once rejected', async () => {
    const cargoId = await cargo(101);
    const first = await applied(cargoId);
    const again = await call(agentA, 'POST', '/api/single-use-certificates/apply', { cargoId });
    expect(again.statusCode).toBe(409);
    expect(details(again)).toMatchObject({ code: 'CONFLICT', details: { certificateId: first.id, status: 'applied' } });
    expect((await act(first.id, 'reject')).statusCode).toBe(200);
    expect((await applied(cargoId)).id).not.toBe(first.id);
  });

  it("answers 404 for an unknown cargo and for another company's cargo", async () => {
    expect((await call(agentA, 'POST', '/api/single-use-certificates/apply', { cargoId: 987654 })).statusCode).toBe(404);
    expect((await call(agentA, 'POST', '/api/single-use-certificates/apply', { cargoId: await cargo(202) })).statusCode).toBe(404);
  });

  it('answers 403 to a company user who is not a clearing agent', async () => {
    expect((await call(testUsers.companyA, 'POST', '/api/single-use-certificates/apply', { cargoId: await cargo(101) })).statusCode).toBe(
      403,
    );
  });

  it('charges a Tanzanian company in TZS', async () => {
    expect((await applied(await cargo(202), agentB)).fee).toEqual({ amount: 50000, currency: 'TZS' });
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: apply, invalidBody: { cargoId: 'one' } });
});

describe('generate-and-upload, view-links, approve, reject: errors', () => {
  it('keeps other companies out (404) and checks the payment reference (400)', async () => {
    const c = await applied(await cargo(101));
    expect((await act(c.id, 'generate', agentB)).statusCode).toBe(404);
    expect((await call(agentB, 'GET', `/api/single-use-certificates/${c.id}/view-links`)).statusCode).toBe(404);
    expect((await call(testUsers.companyB, 'GET', `/api/single-use-certificates/${c.id}`)).statusCode).toBe(404);
    const bad = await call(agentA, 'POST', `/api/single-use-certificates/${c.id}/generate-and-upload`, {
      paymentReference: 'x!',
      paymentMethod: 'mpesa',
    });
    expect(bad.statusCode).toBe(400);
    expect(details(bad).details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'paymentReference' })]));
  });

  it('answers 409 for links before the documents exist and 400 to a too short or too long ttl (links live minutes to hours)', async () => {
    const c = await applied(await cargo(101));
    const res = await call(agentA, 'GET', `/api/single-use-certificates/${c.id}/view-links`);
    expect(res.statusCode).toBe(409);
    expect(details(res)).toMatchObject({ code: 'CONFLICT', details: { current: 'applied' } });
    expect((await call(agentA, 'GET', `/api/single-use-certificates/${c.id}/view-links?ttlSeconds=5`)).statusCode).toBe(400);
    expect((await call(agentA, 'GET', `/api/single-use-certificates/${c.id}/view-links?ttlSeconds=86400`)).statusCode).toBe(400);
  });

  it('needs a reason to reject, answers 404 to an unknown certificate, and tells the company why', async () => {
    const c = await applied(await cargo(101));
    const noReason = await call(testUsers.officer, 'POST', `/api/single-use-certificates/${c.id}/reject`, {});
    expect(noReason.statusCode).toBe(400);
    expect(details(noReason).details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'reason' })]));
    expect((await act(987654, 'approve')).statusCode).toBe(404);
    expect((await act(987654, 'reject')).statusCode).toBe(404);
    expect((await act(c.id, 'reject')).json<Certificate>().decision).toMatchObject({ reason: 'IDF values do not match the invoice' });
    const inbox = (await call(agentA, 'GET', '/api/inbox?type=certificateRejected')).json<NotificationPage>();
    expect(inbox.items.find((n) => n.entityId === String(c.id))?.message).toContain('IDF values do not match the invoice');
    const [entry] = await audit.forEntity(adapters.db.orm, 'single_use_certificate', c.id);
    expect(entry).toMatchObject({
      action: 'certificate.rejected',
      reason: 'IDF values do not match the invoice',
      actorUserId: testUsers.officer.userId,
    });
  });

  it('answers 403 to the company when it tries to approve its own certificate', async () => {
    const c = await applied(await cargo(101));
    expect((await act(c.id, 'approve', agentA)).statusCode).toBe(403);
  });

  runCommonRouteTests({
    app: () => svc.app,
    endpoint: generate,
    params: { id: '1' },
    invalidBody: { paymentReference: 'QWE12RTY34', paymentMethod: 'barter' },
  });
  runCommonRouteTests({ app: () => svc.app, endpoint: viewLinks, params: { id: '1' } });
  runCommonRouteTests({ app: () => svc.app, endpoint: approve, params: { id: '1' }, invalidBody: { note: 42 } });
  runCommonRouteTests({ app: () => svc.app, endpoint: reject, params: { id: '1' }, invalidBody: { reason: 'no' } });
  runCommonRouteTests({ app: () => svc.app, endpoint: get, params: { id: '1' } });
});

describe('GET /single-use-certificates and /stats', () => {
  it("scopes the list to the caller's company and filters", async () => {
    const mine = await applied(await cargo(101));
    const theirs = await applied(await cargo(202), agentB);
    const a = (await call(testUsers.companyA, 'GET', '/api/single-use-certificates?limit=1000')).json<CertificatePage>();
    expect(a.items.every((c) => c.companyId === 101)).toBe(true);
    expect(a.items.some((c) => c.id === mine.id)).toBe(true);
    // another company, named in a filter, answers like an unknown one
    expect((await call(testUsers.companyA, 'GET', '/api/single-use-certificates?companyId=202')).statusCode).toBe(404);
    const staff = (
      await call(testUsers.analyst, 'GET', `/api/single-use-certificates?companyId=202&status=applied`)
    ).json<CertificatePage>();
    expect(staff.items.some((c) => c.id === theirs.id)).toBe(true);
    expect(staff.items.every((c) => c.companyId === 202 && c.status === 'applied')).toBe(true);
    const byCode = (
      await call(testUsers.analyst, 'GET', `/api/single-use-certificates?q=${mine.verificationCode}`)
    ).json<CertificatePage>();
    expect(byCode.items.map((c) => c.id)).toEqual([mine.id]);
    const byCargo = (await call(testUsers.analyst, 'GET', `/api/single-use-certificates?cargoId=${mine.cargoId}`)).json<CertificatePage>();
    expect(byCargo.items.map((c) => c.id)).toEqual([mine.id]);
    const paged = (await call(testUsers.analyst, 'GET', '/api/single-use-certificates?limit=2&offset=1')).json<CertificatePage>();
    expect(paged.items).toHaveLength(2);
    expect((await call(testUsers.analyst, 'GET', '/api/single-use-certificates?status=issued')).statusCode).toBe(400);
  });

  it('counts by status, company and period, scoped for companies', async () => {
    const res = await call(testUsers.analyst, 'GET', '/api/single-use-certificates/stats?granularity=day');
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json<CertificateStats>();
    const all = (await call(testUsers.analyst, 'GET', '/api/single-use-certificates?limit=1000')).json<CertificatePage>();
    expect(s.byStatus.total).toBe(all.total);
    for (const status of certificateStatuses) expect(s.byStatus[status]).toBe(all.items.filter((c) => c.status === status).length);
    expect(s.byCompany.find((c) => c.companyId === 101)?.total).toBe(all.items.filter((c) => c.companyId === 101).length);
    expect(s.byCompany.find((c) => c.companyId === 202)?.companyName).toBe('Msasani Corridor Logistics Ltd');
    expect(s.byPeriod.map((p) => p.periodStart)).toEqual([new Date().toISOString().slice(0, 10)]);
    const b = (await call(testUsers.companyB, 'GET', '/api/single-use-certificates/stats')).json<CertificateStats>();
    expect(b.byCompany.map((c) => c.companyId)).toEqual([202]);
    expect((await call(testUsers.companyB, 'GET', '/api/single-use-certificates/stats?companyId=101')).statusCode).toBe(404);
    expect(
      (await call(testUsers.analyst, 'GET', '/api/single-use-certificates/stats?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z'))
        .statusCode,
    ).toBe(400);
    expect((await call(testUsers.analyst, 'GET', '/api/single-use-certificates/stats?granularity=year')).statusCode).toBe(400);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: list });
  runCommonRouteTests({ app: () => svc.app, endpoint: stats });
});

describe('GET /single-use-certificates/verify/{code}', () => {
  it('shows an applied certificate as not valid, 404 for an unknown code and 400 for a malformed one', async () => {
    const c = await applied(await cargo(101));
    expect(
      (await call(null, 'GET', `/api/single-use-certificates/verify/${c.verificationCode}`)).json<CertificateVerification>(),
    ).toMatchObject({ status: 'applied', valid: false });
    expect((await call(null, 'GET', '/api/single-use-certificates/verify/AAAA-BBBB-CCCC')).statusCode).toBe(404);
    expect((await call(null, 'GET', '/api/single-use-certificates/verify/nope')).statusCode).toBe(400);
  });
});
