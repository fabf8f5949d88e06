import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, crc32, createDeflateRaw } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentWithLink } from '@corridor/contracts';
import { registry } from '@corridor/platform';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { recordingLogger } from '@corridor/platform/testing/log-lines';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type OpsApiService } from '../src/app';
import { localStorage } from '../src/documents/storage';
import { noScanner } from '../src/documents/virus-scan';
import { deflateBombPdf, pdfWith } from './fixtures/deflate-bomb';
import { idfPdf, sampleIdf } from './fixtures/idf-documents';
import { multipart } from './fixtures/multipart';
import { png, textPdf } from './fixtures/sample-files';

/**
 * The upload half of issue 23's hostile-input sweep, on the real reader processes (src/parsers):
 * zip bombs (honest and lying sizes) uploaded as a spreadsheet, a PDF nested 100,000 levels deep
 * and a deflate bomb sent to process-idf, a PNG declaring 100,000 × 100,000 pixels, files whose
 * bytes contradict their declared type, and garbage bodies. Each answers a 4xx naming the problem
 * (never 5xx), is counted (http_request_duration_seconds by status, ops_document_parses_total) and
 * logged, and the service goes on serving a genuine document. Documents are stored, never decoded,
 * except PDFs and IDF exports, which only the reader processes read.
 */
const { logger, lines: logLines } = recordingLogger();
let adapters: TestAdapters;
let svc: OpsApiService;
let dir: string;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  dir = await mkdtemp(join(tmpdir(), 'ops-hostile-'));
  svc = await build({
    ...adapters,
    logger,
    identitySecret: TEST_IDENTITY_SECRET,
    documents: { storage: localStorage(dir), scanner: noScanner, maxBytes: 4 << 20 },
    parsers: { processes: 1, queue: 4, timeoutMs: 15_000, memoryBytes: 256 << 20, inflatedBytes: 16 << 20 },
  });
}, 120_000);
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
  await rm(dir, { recursive: true, force: true });
});

/** `length` bytes of zeros through raw deflate, streamed (never held inflated), with their CRC-32. */
async function deflatedZeros(length: number): Promise<{ data: Buffer; crc: number }> {
  const deflate = createDeflateRaw({ level: constants.Z_BEST_COMPRESSION });
  const parts: Buffer[] = [];
  deflate.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const chunk = Buffer.alloc(1 << 20);
  let crc = 0;
  for (let left = length; left > 0; left -= chunk.length) {
    const part = chunk.subarray(0, Math.min(left, chunk.length));
    crc = crc32(part, crc);
    if (!deflate.write(part)) await new Promise((r) => deflate.once('drain', r));
  }
  deflate.end();
  await done;
  return { data: Buffer.concat(parts), crc };
}

/** A zip (the container of an .xlsx) whose one entry inflates to `inflated` bytes; `declared` is the size its headers claim. */
async function zipBomb(name: string, inflated: number, declared = inflated): Promise<Buffer> {
  const { data, crc } = await deflatedZeros(inflated);
  const file = Buffer.from(name, 'latin1');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(declared, 22);
  local.writeUInt16LE(file.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(declared, 24);
  central.writeUInt16LE(file.length, 28);
  const cdOffset = local.length + file.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + file.length, 12);
  end.writeUInt32LE(cdOffset, 16);
  return Buffer.concat([local, file, data, central, file, end]);
}

/** A PNG that declares width × height pixels and carries one tiny compressed row. */
function hugePng(width: number, height: number): Buffer {
  const real = png(1, 1);
  const out = Buffer.from(real);
  // IHDR's data starts after the 8-byte signature, the chunk's length and type; its CRC after 13 bytes
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(crc32(out.subarray(12, 29)) >>> 0, 29);
  return out;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function upload(bytes: Uint8Array, contentType: string, filename: string) {
  const body = await multipart({ kind: 'other' }, { filename, contentType, bytes });
  return svc.app.inject({
    method: 'POST',
    url: '/api/documents/upload',
    headers: { ...body.headers, ...(await asUser(testUsers.companyA)) },
    payload: body.payload,
  });
}
async function processIdf(bytes: Uint8Array) {
  const body = await multipart({ kind: 'idf' }, { filename: 'idf.pdf', contentType: 'application/pdf', bytes });
  const up = await svc.app.inject({
    method: 'POST',
    url: '/api/documents/upload',
    headers: { ...body.headers, ...(await asUser(testUsers.companyA)) },
    payload: body.payload,
  });
  expect(up.statusCode, up.body).toBe(201);
  return svc.app.inject({
    method: 'POST',
    url: '/api/cargos/process-idf',
    headers: await asUser(testUsers.companyA),
    payload: { documentId: up.json<DocumentWithLink>().id },
  });
}

/** Requests answered with this status on this route so far (the service's request histogram). */
async function answered(route: string, status: number): Promise<number> {
  const { values } = await registry.getSingleMetric('http_request_duration_seconds')!.get();
  return (
    values.find(
      (v) =>
        (v as { metricName?: string }).metricName === 'http_request_duration_seconds_count' &&
        v.labels.service === 'ops-api' &&
        v.labels.route === route &&
        v.labels.status === String(status),
    )?.value ?? 0
  );
}
/** Documents the reader processes were given so far, by outcome (read, or the limit or failure that stopped them). */
async function parses(): Promise<Record<string, number>> {
  const { values } = await registry.getSingleMetric('ops_document_parses_total')!.get();
  const out: Record<string, number> = {};
  for (const v of values) out[String(v.labels.outcome)] = (out[String(v.labels.outcome)] ?? 0) + v.value;
  return out;
}
const total = (o: Record<string, number>) => Object.values(o).reduce((a, b) => a + b, 0);

/** Expects `status`, counted under the route and logged as refused. */
async function refused(
  res: { statusCode: number; body: string },
  route: string,
  status: number,
  before: number,
  logsBefore: number,
): Promise<void> {
  expect(res.statusCode, res.body).toBe(status);
  expect((JSON.parse(res.body) as { error: { code: string; message: string } }).error.message.length).toBeGreaterThan(10);
  expect(await answered(route, status)).toBe(before + 1);
  expect(
    logLines.slice(logsBefore).some((l) => l.status === status && l.level >= 30),
    `a log line for ${status}`,
  ).toBe(true);
}

describe('hostile uploads', () => {
  const UPLOAD = '/api/documents/upload';

  it('refuses a zip bomb declared as a spreadsheet, whether its sizes are honest or lie (415: a zip is no accepted type)', async () => {
    for (const bomb of [
      await zipBomb('[Content_Types].xml', 32 << 20),
      await zipBomb('[Content_Types].xml', 32 << 20, 512),
      await zipBomb('xl/workbook.xml', 32 << 20, 512),
    ]) {
      const [before, logs] = [await answered(UPLOAD, 415), logLines.length];
      await refused(await upload(bomb, XLSX, 'rates.xlsx'), UPLOAD, 415, before, logs);
    }
  });

  it('refuses files whose bytes contradict their declared type (415)', async () => {
    const pdf = await textPdf(['Invoice']);
    for (const [bytes, type] of [
      [pdf, 'image/png'],
      [png(), 'application/pdf'],
      [Buffer.from('<html><script>alert(1)</script>'), 'image/jpeg'],
      [Buffer.from([0xff, 0xfe, 0, 0x41]), 'text/csv'],
    ] as const) {
      const [before, logs] = [await answered(UPLOAD, 415), logLines.length];
      await refused(await upload(bytes, type, 'file'), UPLOAD, 415, before, logs);
    }
  });

  it('stores a PNG declaring 100,000 × 100,000 pixels as bytes, without decoding it', async () => {
    const res = await upload(hugePng(100_000, 100_000), 'image/png', 'scan.png');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<DocumentWithLink>().contentType).toBe('image/png');
  });

  it('answers 413 to a file over the size limit and 400 to garbage multipart bodies', async () => {
    const [before413, logs] = [await answered(UPLOAD, 413), logLines.length];
    await refused(await upload(Buffer.alloc((4 << 20) + 1, 0x20), 'text/plain', 'big.txt'), UPLOAD, 413, before413, logs);
    for (const payload of [
      Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nabc'),
      Buffer.alloc(4096, 0xff),
    ]) {
      const [before, logs2] = [await answered(UPLOAD, 400), logLines.length];
      const res = await svc.app.inject({
        method: 'POST',
        url: UPLOAD,
        headers: { 'content-type': 'multipart/form-data; boundary=x', ...(await asUser(testUsers.companyA)) },
        payload,
      });
      await refused(res, UPLOAD, 400, before, logs2);
    }
  });

  it('answers 400 to garbage JSON bodies on the API', async () => {
    for (const payload of ['{"documentId": ', '\u0000\u0001', '[]'.repeat(50_000), '{"documentId": 1e400}']) {
      const [before, logs] = [await answered('/api/cargos/process-idf', 400), logLines.length];
      const res = await svc.app.inject({
        method: 'POST',
        url: '/api/cargos/process-idf',
        headers: { 'content-type': 'application/json', ...(await asUser(testUsers.companyA)) },
        payload,
      });
      await refused(res, '/api/cargos/process-idf', 400, before, logs);
    }
  });
});

describe('hostile PDFs sent to process-idf (the reader processes)', () => {
  const ROUTE = '/api/cargos/process-idf';

  it("answers 422 to a PDF nested 100,000 levels deep, within the reader's limits, and counts the read", async () => {
    const depth = 100_000;
    const deep = pdfWith([
      Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
      Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << >> /Deep ${'['.repeat(depth)}${']'.repeat(depth)} >>`,
      ),
    ]);
    const [before, read, logs] = [await answered(ROUTE, 422), await parses(), logLines.length];
    await refused(await processIdf(deep), ROUTE, 422, before, logs);
    expect(total(await parses()), JSON.stringify(await parses())).toBe(total(read) + 1);
  });

  it('answers 422 to a deflate bomb (64 MiB inflated, over the 16 MiB cap) and then reads nothing more than asked', async () => {
    const [before, logs] = [await answered(ROUTE, 422), logLines.length];
    await refused(await processIdf(await deflateBombPdf(64 << 20)), ROUTE, 422, before, logs);
  });

  it('goes on reading a genuine PDF afterwards', async () => {
    const res = await processIdf(await idfPdf(sampleIdf({ idfNumber: '24NBOIM599000001' })));
    expect(res.statusCode, res.body).toBe(201);
    expect((await svc.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
