import { createHash, createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentsEndpoints, type DocumentWithLink, type ErrorBody } from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type OpsApiService } from '../app';
import { multipart } from '../../test/fixtures/multipart';
import { png, textPdf } from '../../test/fixtures/sample-files';
import { documentsRepository } from './repository';
import { documentsService } from './service';
import { MAX_LINK_TTL_SECONDS } from './signed-link';
import { localStorage } from './storage';
import { commandScanner, noScanner } from './virus-scan';

const MAX = 64 * 1024;
let adapters: TestAdapters;
let svc: OpsApiService;
let dir: string;
let pdf: Uint8Array;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  dir = await mkdtemp(join(tmpdir(), 'ops-docs-'));
  svc = await build({
    ...adapters,
    logger: adapters.logger,
    identitySecret: TEST_IDENTITY_SECRET,
    documents: { storage: localStorage(dir), scanner: noScanner, maxBytes: MAX },
  });
  pdf = await textPdf(['Bill of lading', 'B/L No: MSKU123']);
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
  await rm(dir, { recursive: true, force: true });
});

const [upload, list, get] = documentsEndpoints;

async function uploadAs(
  user: keyof typeof testUsers,
  fields: Record<string, string | number | undefined>,
  file?: Parameters<typeof multipart>[1],
) {
  const body = await multipart(fields, file);
  return svc.app.inject({
    method: 'POST',
    url: '/api/documents/upload',
    headers: { ...body.headers, ...(await asUser(testUsers[user])) },
    payload: body.payload,
  });
}
const pdfFile = (bytes: Uint8Array = pdf, contentType = 'application/pdf') => ({ filename: 'bl.pdf', contentType, bytes });

describe('POST /documents/upload', () => {
  it("stores a PDF for the caller's company with checksum, scan status and a working signed link", async () => {
    const res = await uploadAs('companyA', { kind: 'bill_of_lading', ownerType: 'shipment', ownerId: '7' }, pdfFile());
    expect(res.statusCode).toBe(201);
    const doc = res.json<DocumentWithLink>();
    expect(doc).toMatchObject({
      companyId: 101,
      kind: 'bill_of_lading',
      contentType: 'application/pdf',
      sizeBytes: pdf.length,
      scanStatus: 'not_scanned',
      ownerType: 'shipment',
      ownerId: '7',
      filename: 'bl.pdf',
    });
    expect(doc.sha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    const dl = await svc.app.inject({ method: 'GET', url: doc.download.url, headers: await asUser(testUsers.companyA) });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(dl.rawPayload, Buffer.from(pdf))).toBe(0);
  });

  it('takes the sniffed type when the client declares application/octet-stream', async () => {
    const res = await uploadAs(
      'companyA',
      { kind: 'photo' },
      { filename: 'truck.png', contentType: 'application/octet-stream', bytes: png() },
    );
    expect(res.statusCode).toBe(201);
    expect(res.json<DocumentWithLink>().contentType).toBe('image/png');
  });

  it('accepts JSON and CSV exports as UTF-8 text', async () => {
    const csv = await uploadAs(
      'companyA',
      { kind: 'idf' },
      { filename: 'idf.csv', contentType: 'text/csv', bytes: Buffer.from('idf_number,hs_code\n24NBOIM000000001,8704.21.90\n') },
    );
    expect(csv.statusCode).toBe(201);
    const json = await uploadAs(
      'companyA',
      { kind: 'idf' },
      { filename: 'idf.json', contentType: 'application/json', bytes: Buffer.from('{"idfNumber":"X"}') },
    );
    expect(json.statusCode).toBe(201);
  });

  it.each([
    ['a PNG declared as a PDF', { filename: 'x.pdf', contentType: 'application/pdf', bytes: png() }],
    ['a PDF declared as a PNG', { filename: 'x.png', contentType: 'image/png', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') }],
    ['binary declared as CSV', { filename: 'x.csv', contentType: 'text/csv', bytes: Buffer.from([0, 1, 2, 0xff, 0xfe]) }],
    ['broken JSON', { filename: 'x.json', contentType: 'application/json', bytes: Buffer.from('{"a":') }],
    [
      'an accepted type the content does not prove',
      { filename: 'x.pdf', contentType: 'application/pdf', bytes: Buffer.from('just words') },
    ],
    [
      'a type that is not accepted',
      { filename: 'x.gif', contentType: 'image/gif', bytes: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;') },
    ],
    [
      'an executable',
      { filename: 'x.pdf', contentType: 'application/octet-stream', bytes: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]) },
    ],
  ])('answers 415 to %s', async (_, file) => {
    const res = await uploadAs('companyA', { kind: 'other' }, file);
    expect(res.statusCode).toBe(415);
    expect(res.json<ErrorBody>().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 413 above the size limit and stores nothing', async () => {
    const before = (await svc.documents.list({ companyId: 101, limit: 1, offset: 0 })).total;
    const big = Buffer.concat([Buffer.from(pdf), Buffer.alloc(MAX + 10, 0x20)]);
    const res = await uploadAs('companyA', { kind: 'other' }, pdfFile(big));
    expect(res.statusCode).toBe(413);
    expect(res.json<ErrorBody>().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await svc.documents.list({ companyId: 101, limit: 1, offset: 0 })).total).toBe(before);
  });

  it('answers 400 naming the field: missing kind, bad kind, missing file, empty file, staff without companyId', async () => {
    const cases: [keyof typeof testUsers, Record<string, string | undefined>, Parameters<typeof multipart>[1], string][] = [
      ['companyA', {}, pdfFile(), 'kind'],
      ['companyA', { kind: 'passport' }, pdfFile(), 'kind'],
      ['companyA', { kind: 'other' }, undefined, 'file'],
      ['companyA', { kind: 'other' }, pdfFile(new Uint8Array()), 'file'],
      ['officer', { kind: 'other' }, pdfFile(), 'companyId'],
      ['companyA', { kind: 'other', ownerType: 'planet' }, pdfFile(), 'ownerType'],
    ];
    for (const [user, fields, file, field] of cases) {
      const res = await uploadAs(user, fields, file);
      expect(res.statusCode, field).toBe(400);
      const body = res.json<ErrorBody>();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.message).toContain(field);
    }
  });

  it('answers 415 to a body that is not multipart', async () => {
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/documents/upload',
      headers: await asUser(testUsers.companyA),
      payload: { kind: 'other' },
    });
    expect(res.statusCode).toBe(415);
  });

  it('lets association staff upload for a named company; another company named by a company user, or an unknown one, answers 404', async () => {
    const staff = await uploadAs('officer', { kind: 'permit', companyId: 202 }, pdfFile());
    expect(staff.statusCode).toBe(201);
    expect(staff.json<DocumentWithLink>().companyId).toBe(202);
    const other = await uploadAs('companyA', { kind: 'permit', companyId: 202 }, pdfFile());
    expect(other.statusCode).toBe(404);
    expect((await uploadAs('officer', { kind: 'other', companyId: '999' }, pdfFile())).statusCode).toBe(404);
  });

  it("answers 400, not 500, to a multipart body without a boundary or cut short (the fuzzer's finding)", async () => {
    const headers = await asUser(testUsers.companyA);
    for (const contentType of ['multipart/form-data', 'multipart/form-data; charset=utf-8']) {
      const res = await svc.app.inject({
        method: 'POST',
        url: '/api/documents/upload',
        headers: { ...headers, 'content-type': contentType },
        payload: 'xx',
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<ErrorBody>().error).toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/multipart/) });
    }
    const body = await multipart({ kind: 'permit' }, pdfFile());
    const cut = Buffer.from(body.payload).subarray(0, 120);
    const res = await svc.app.inject({
      method: 'POST',
      url: '/api/documents/upload',
      headers: { ...headers, ...body.headers },
      payload: cut,
    });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: upload });
});

describe('GET /documents/{documentId} and downloads', () => {
  let doc: DocumentWithLink;
  beforeAll(async () => {
    doc = (await uploadAs('companyB', { kind: 'cmr' }, pdfFile())).json<DocumentWithLink>();
  });

  it('gives the owner company and the association a fresh link; another company gets 404', async () => {
    for (const user of ['companyB', 'officer', 'analyst'] as const) {
      const res = await svc.app.inject({ method: 'GET', url: `/api/documents/${doc.id}`, headers: await asUser(testUsers[user]) });
      expect(res.statusCode, user).toBe(200);
      expect(res.json<DocumentWithLink>().download.url).toMatch(
        new RegExp(`^/api/documents/${doc.id}/download\\?user=${testUsers[user].userId}&expires=\\d+&signature=`),
      );
    }
    const other = await svc.app.inject({ method: 'GET', url: `/api/documents/${doc.id}`, headers: await asUser(testUsers.companyA) });
    expect(other.statusCode).toBe(404);
  });

  it('answers 404 to an unknown id and 400 to a malformed one', async () => {
    const missing = await svc.app.inject({
      method: 'GET',
      url: '/api/documents/00000000-0000-4000-8000-000000000000',
      headers: await asUser(testUsers.officer),
    });
    expect(missing.statusCode).toBe(404);
    const bad = await svc.app.inject({ method: 'GET', url: '/api/documents/not-a-uuid', headers: await asUser(testUsers.officer) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().error.message).toContain('documentId');
  });

  it('serves a link to the user it was issued to, within its lifetime', async () => {
    const res = await svc.app.inject({ method: 'GET', url: doc.download.url, headers: await asUser(testUsers.companyB) });
    expect(res.statusCode, res.body).toBe(200);
    const expiresIn = new Date(doc.download.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeGreaterThan(0);
    expect(expiresIn).toBeLessThanOrEqual(MAX_LINK_TTL_SECONDS * 1000);
  });

  it("refuses an altered, a forged, an expired or another user's link with 403, and an anonymous caller with 401", async () => {
    const u = new URL(doc.download.url, 'http://x');
    const expires = u.searchParams.get('expires')!;
    const sig = u.searchParams.get('signature')!;
    const owner = await asUser(testUsers.companyB);
    const uid = testUsers.companyB.userId;
    const link = (q: { user?: number; expires?: number | string; signature: string }) =>
      `/api/documents/${doc.id}/download?user=${q.user ?? uid}&expires=${q.expires ?? expires}&signature=${q.signature}`;
    const get = async (url: string, headers: Record<string, string> = owner) => svc.app.inject({ method: 'GET', url, headers });
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect((await get(link({ signature: flipped }))).statusCode).toBe(403);
    expect((await get(link({ expires: Number(expires) + 1000, signature: sig }))).statusCode).toBe(403);
    // an officer who may read the document cannot use the link of companyB's user; to another company's
    // user the document is unknown (404, as every id of another company)
    const officer = await get(doc.download.url, await asUser(testUsers.officer));
    expect(officer.statusCode).toBe(403);
    expect(officer.json<ErrorBody>().error.message).toMatch(/another user/);
    expect((await get(doc.download.url, await asUser(testUsers.companyA))).statusCode).toBe(404);
    // naming oneself in the link breaks its signature
    expect((await get(link({ user: testUsers.officer.userId, signature: sig }), await asUser(testUsers.officer))).statusCode).toBe(403);
    expect((await get(doc.download.url, {})).statusCode).toBe(401);
    const key = createHmac('sha256', TEST_IDENTITY_SECRET).update('corridor-document-links').digest();
    const past = Math.floor(Date.now() / 1000) - 5;
    const pastSig = createHmac('sha256', key).update(`${doc.id}.${uid}.${past}`).digest('base64url');
    const expired = await get(link({ expires: past, signature: pastSig }));
    expect(expired.statusCode).toBe(403);
    expect(expired.json<ErrorBody>().error.message).toMatch(/expired/);
    // forged with the old scheme (the bare secret over "id.expires") or another key
    expect(
      (
        await get(
          `/api/documents/${doc.id}/download?user=${uid}&expires=${expires}&signature=${createHmac('sha256', TEST_IDENTITY_SECRET).update(`${doc.id}.${expires}`).digest('base64url')}`,
        )
      ).statusCode,
    ).toBe(403);
    const forged = createHmac('sha256', 'another-secret-0123456789').update(`${doc.id}.${uid}.${expires}`).digest('base64url');
    expect((await get(link({ signature: forged }))).statusCode).toBe(403);
  });

  it('keeps links signed with the previous secret working during a rotation', async () => {
    const next = 'the-next-internal-secret-0123456789';
    const rotated = documentsService({
      repo: documentsRepository(adapters.db.orm),
      storage: localStorage(dir),
      scanner: noScanner,
      linkSecret: { current: next, previous: TEST_IDENTITY_SECRET },
      maxBytes: MAX,
      companyExists: async () => true,
      logger: adapters.logger,
    });
    const u = new URL(doc.download.url, 'http://x');
    const q = {
      user: Number(u.searchParams.get('user')),
      expires: Number(u.searchParams.get('expires')),
      signature: u.searchParams.get('signature')!,
    };
    expect((await rotated.download(doc.id, q, testUsers.companyB.userId)).record.id).toBe(doc.id);
    const after = documentsService({
      repo: documentsRepository(adapters.db.orm),
      storage: localStorage(dir),
      scanner: noScanner,
      linkSecret: next,
      maxBytes: MAX,
      companyExists: async () => true,
      logger: adapters.logger,
    });
    await expect(after.download(doc.id, q, testUsers.companyB.userId)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('answers 400 to a download without its signature', async () => {
    const res = await svc.app.inject({
      method: 'GET',
      url: `/api/documents/${doc.id}/download`,
      headers: await asUser(testUsers.companyB),
    });
    expect(res.statusCode).toBe(400);
  });

  it('refuses to serve bytes that no longer match their checksum', async () => {
    const d = (await uploadAs('companyB', { kind: 'other' }, pdfFile())).json<DocumentWithLink>();
    await writeFile(join(dir, '202', d.id), 'tampered');
    const res = await svc.app.inject({ method: 'GET', url: d.download.url, headers: await asUser(testUsers.companyB) });
    expect(res.statusCode).toBe(500);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: get, params: { documentId: '00000000-0000-4000-8000-000000000000' } });
});

describe('GET /documents (association oversight)', () => {
  it('filters by company, kind, owner and date range, paginated, newest first', async () => {
    const h = await asUser(testUsers.analyst);
    const all = await svc.app.inject({ method: 'GET', url: '/api/documents?limit=2', headers: h });
    expect(all.statusCode).toBe(200);
    const page = all.json<{ items: DocumentWithLink[]; total: number; limit: number }>();
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThan(4);
    expect(page.items[0]!.createdAt >= page.items[1]!.createdAt).toBe(true);

    const b = (await svc.app.inject({ method: 'GET', url: '/api/documents?companyId=202', headers: h })).json<{
      items: DocumentWithLink[];
    }>();
    expect(b.items.length).toBeGreaterThan(0);
    expect(b.items.every((d) => d.companyId === 202)).toBe(true);

    const owned = (
      await svc.app.inject({ method: 'GET', url: '/api/documents?ownerType=shipment&ownerId=7&kind=bill_of_lading', headers: h })
    ).json<{ items: DocumentWithLink[] }>();
    expect(owned.items.map((d) => d.ownerId)).toEqual(['7']);

    const future = new Date(Date.now() + 3600_000).toISOString();
    const none = (await svc.app.inject({ method: 'GET', url: `/api/documents?from=${encodeURIComponent(future)}`, headers: h })).json<{
      total: number;
    }>();
    expect(none.total).toBe(0);
    const past = new Date(Date.now() - 3600_000).toISOString();
    const before = (await svc.app.inject({ method: 'GET', url: `/api/documents?to=${encodeURIComponent(past)}`, headers: h })).json<{
      total: number;
    }>();
    expect(before.total).toBe(0);
  });

  it('answers 400 naming a bad filter', async () => {
    const res = await svc.app.inject({ method: 'GET', url: '/api/documents?kind=passport', headers: await asUser(testUsers.officer) });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error.message).toContain('kind');
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: list });
});

describe('virus-scan hook', () => {
  const script = 'if grep -q EICAR-STANDARD-ANTIVIRUS-TEST-FILE; then echo "stream: Eicar-Signature FOUND"; exit 1; fi; exit 0';

  it('a command scanner reports clean and infected from the exit code, and fails loudly otherwise', async () => {
    const scanner = commandScanner(['sh', '-c', script]);
    expect((await scanner.scan(Buffer.from('hello'), 'a.txt')).status).toBe('clean');
    const infected = await scanner.scan(Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*'), 'eicar.txt');
    expect(infected).toMatchObject({ status: 'infected', detail: expect.stringContaining('FOUND') });
    await expect(commandScanner(['sh', '-c', 'exit 2']).scan(Buffer.from('x'), 'x')).rejects.toThrow(/exit 2/);
  });

  it('an infected upload is refused (422) and nothing is stored; a clean one is recorded as clean', async () => {
    const docs = documentsService({
      repo: documentsRepository(adapters.db.orm),
      storage: localStorage(dir),
      scanner: commandScanner(['sh', '-c', script]),
      linkSecret: TEST_IDENTITY_SECRET,
      maxBytes: MAX,
      companyExists: async () => true,
      logger: adapters.logger,
    });
    const eicar = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*');
    await expect(
      docs.store({
        companyId: 101,
        kind: 'other',
        filename: 'e.txt',
        contentType: 'text/plain',
        bytes: eicar,
        uploadedBy: testUsers.companyA,
      }),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE' });
    const clean = await docs.store({
      companyId: 101,
      kind: 'other',
      filename: 'c.txt',
      contentType: 'text/plain',
      bytes: Buffer.from('fine'),
      uploadedBy: testUsers.companyA,
    });
    expect(clean.scanStatus).toBe('clean');
  });

  it('local storage refuses keys that would leave its folder', async () => {
    await expect(localStorage(dir).put('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
  });
});
