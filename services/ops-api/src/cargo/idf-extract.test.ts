import { describe, expect, it } from 'vitest';
import type { DocumentRecord } from '@corridor/contracts';
import { AppError } from '@corridor/platform';
import { layoutLines, pdfTextReader } from '../documents/pdf-text';
import { billOfLadingPdf, idfPdf, sampleIdf } from '../../test/fixtures/idf-documents';
import { corruptPdf, imageOnlyPdf, png } from '../../test/fixtures/sample-files';
import { inThreadIdfReaders, readIdf } from './idf-reader';
import { extractIdfFromCsv, extractIdfFromJson } from './idf-structured';

const reader = inThreadIdfReaders(pdfTextReader());
const doc = (contentType: string): DocumentRecord => ({
  id: '00000000-0000-4000-8000-000000000001',
  companyId: 103,
  kind: 'idf',
  filename: 'idf',
  contentType,
  sizeBytes: 1,
  sha256: '0'.repeat(64),
  scanStatus: 'not_scanned',
  ownerType: null,
  ownerId: null,
  uploadedBy: { userId: 1, email: 'x' },
  createdAt: new Date().toISOString(),
});
const fromPdf = async (bytes: Uint8Array) => readIdf(doc('application/pdf'), Buffer.from(bytes), reader);
const failure = async (p: Promise<unknown>): Promise<AppError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

describe('IDF from a PDF with a text layer', () => {
  it.each(['form', 'inline'] as const)('reads every field of the %s layout, each with a confidence and its checks', async (layout) => {
    const x = await fromPdf(await idfPdf(sampleIdf(), layout));
    expect(x.format).toBe('pdf');
    const f = x.fields;
    expect(f.idfNumber).toMatchObject({ value: '24NBOIM000123456', valid: true });
    expect(f.importerName.value).toBe('Athi River Importers Ltd');
    expect(f.importerPin).toMatchObject({ value: 'P053456789Z', valid: true, issues: [] });
    expect(f.consignor.value).toBe('Guangzhou Auto Parts Co. Ltd');
    expect(f.countryOfOrigin.value).toBe('China');
    expect(f.portOfDischarge.value).toBe('Mombasa');
    expect(f.currency).toMatchObject({ value: 'USD', valid: true });
    expect(f.invoiceValue).toMatchObject({ value: 48750, valid: true });
    expect(f.lineItems.value).toEqual([
      { hsCode: '8708.30.00', description: 'Brake pads and linings', quantity: 1200, unit: 'PCS', value: 18000 },
      { hsCode: '8708.99.90', description: 'Suspension parts for trucks', quantity: 300, unit: 'SET', value: 21750 },
      { hsCode: '4011.20.00', description: 'Radial tyres for lorries', quantity: 60, unit: 'PCS', value: 9000 },
    ]);
    expect(f.lineItems.valid).toBe(true);
    for (const [name, fl] of Object.entries(f)) expect(fl.confidence, name).toBeGreaterThanOrEqual(0.9);
    expect(x.valid).toBe(true);
  });

  it('flags a bad HS code, a bad PIN, an unknown currency and totals that do not add up, and lowers their confidence', async () => {
    const s = sampleIdf({ importerPin: 'X12345', currency: 'XYZ', invoiceValue: '50,000.00' });
    s.items[0]!.hsCode = '87A8.30';
    s.items[1]!.hsCode = '7708.99';
    const x = await fromPdf(await idfPdf(s));
    expect(x.valid).toBe(false);
    expect(x.fields.importerPin).toMatchObject({ valid: false, issues: [expect.stringMatching(/KRA PIN/)] });
    expect(x.fields.currency).toMatchObject({ valid: false });
    expect(x.fields.invoiceValue).toMatchObject({ value: 50000, valid: false, issues: [expect.stringMatching(/add up to 48750/)] });
    expect(x.fields.lineItems.valid).toBe(false);
    expect(x.fields.lineItems.issues).toEqual([
      expect.stringMatching(/^line 1: HS code "87A8.30"/),
      expect.stringMatching(/^line 2: HS code "7708.99" is in no HS chapter/),
    ]);
    expect(x.fields.importerPin.confidence).toBeLessThan(0.9);
    expect(x.fields.idfNumber.valid).toBe(true);
  });

  it('accepts a Tanzanian TIN as the importer PIN', async () => {
    const x = await fromPdf(await idfPdf(sampleIdf({ importerPin: '123-456-789', portOfDischarge: 'Dar es Salaam' })));
    expect(x.fields.importerPin).toMatchObject({ value: '123-456-789', valid: true });
  });

  it('answers 422 "no text layer" for an image-only scan, naming what to check', async () => {
    const err = await failure(fromPdf(await imageOnlyPdf()));
    expect(err.code).toBe('UNPROCESSABLE');
    expect(err.message).toMatch(/no text layer/);
    expect(err.details).toMatchObject({ reason: 'no_text_layer', images: 1, check: expect.stringMatching(/document quality/) });
  });

  it('answers 422 for a corrupt PDF', async () => {
    const err = await failure(fromPdf(corruptPdf()));
    expect(err.code).toBe('UNPROCESSABLE');
    expect(err.details).toMatchObject({ reason: 'unreadable_pdf', check: expect.any(String) });
  });

  it('answers 422 naming the missing fields for a PDF that is not an IDF', async () => {
    const err = await failure(fromPdf(await billOfLadingPdf()));
    expect(err.details).toMatchObject({ reason: 'missing_fields', missing: ['idfNumber'] });
  });

  it('answers 422 for a photographed IDF and 415 for a type an IDF cannot be', async () => {
    expect((await failure(readIdf(doc('image/png'), png(), reader))).details).toMatchObject({ reason: 'no_text_layer' });
    expect(
      (await failure(readIdf(doc('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'), Buffer.from('x'), reader))).code,
    ).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 503 while the PDF reader cannot be loaded, and recovers once it can', async () => {
    let fail = true;
    const flaky = pdfTextReader(async () => {
      if (fail) throw new Error('pdf.js worker missing');
      return import('unpdf');
    });
    const bytes = await idfPdf(sampleIdf());
    const err = await failure(readIdf(doc('application/pdf'), Buffer.from(bytes), inThreadIdfReaders(flaky)));
    expect(err.code).toBe('UNAVAILABLE');
    expect(err.status).toBe(503);
    fail = false;
    expect((await readIdf(doc('application/pdf'), Buffer.from(bytes), inThreadIdfReaders(flaky))).valid).toBe(true);
  });
});

describe('IDF from a structured export', () => {
  const json = {
    idfNumber: '24MSAIM000654321',
    importer: { name: 'Athi River Importers Ltd', pin: 'P053456789Z' },
    consignor: 'Tata Motors Ltd',
    countryOfOrigin: 'India',
    portOfDischarge: 'Mombasa',
    invoice: { value: 30500, currency: 'USD' },
    items: [{ hsCode: '870421', description: 'Goods vehicle chassis', quantity: 1, unit: 'U', value: 30500 }],
  };

  it('reads a JSON export with near-certain confidence and the same checks', () => {
    const x = extractIdfFromJson(JSON.stringify(json));
    expect(x.format).toBe('json');
    expect(x.valid).toBe(true);
    expect(x.fields.idfNumber).toMatchObject({ value: '24MSAIM000654321', confidence: 0.99, valid: true });
    expect(x.fields.lineItems.value).toHaveLength(1);
  });

  it('answers 422 naming what is missing from a JSON export', () => {
    const { importer: _, ...noImporter } = json;
    let err: unknown;
    try {
      extractIdfFromJson(JSON.stringify(noImporter));
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({
      code: 'UNPROCESSABLE',
      details: { reason: 'bad_structure', issues: [expect.objectContaining({ path: 'importer' })] },
    });
    expect(() => extractIdfFromJson('{not json')).toThrow(/could not be parsed/);
  });

  it('reads a CSV export (one row per line item) and checks its totals', () => {
    const csv = [
      'idf_number,importer_name,importer_pin,consignor,country_of_origin,port_of_discharge,currency,invoice_value,hs_code,description,quantity,unit,value',
      '24NBOIM000777000,Athi River Importers Ltd,P053456789Z,"Shenzhen Solar Co., Ltd",China,Mombasa,USD,"12,000.00",8541.43.00,Solar panels,100,PCS,"10,000.00"',
      '24NBOIM000777000,Athi River Importers Ltd,P053456789Z,"Shenzhen Solar Co., Ltd",China,Mombasa,USD,"12,000.00",8504.40.00,Inverters,10,PCS,"1,000.00"',
    ].join('\n');
    const x = extractIdfFromCsv(csv);
    expect(x.format).toBe('csv');
    expect(x.fields.consignor.value).toBe('Shenzhen Solar Co., Ltd');
    expect(x.fields.lineItems.value).toHaveLength(2);
    expect(x.fields.invoiceValue).toMatchObject({ value: 12000, valid: false, issues: [expect.stringMatching(/add up to 11000/)] });
    expect(x.valid).toBe(false);
  });

  it('answers 422 for a CSV without the IDF columns', () => {
    expect(() => extractIdfFromCsv('a,b\n1,2\n')).toThrow(AppError);
    expect(() => extractIdfFromCsv('')).toThrow(/no rows/);
  });
});

describe('PDF text layout', () => {
  it('splits a line into cells at wide gaps and keeps words of one run together', () => {
    const lines = layoutLines([
      { str: 'IDF No:', x: 50, y: 700, w: 30, size: 9 },
      { str: '24NBOIM000123456', x: 200, y: 700, w: 80, size: 9 },
      { str: 'Brake', x: 50, y: 680, w: 22, size: 9 },
      { str: 'pads', x: 74, y: 680.5, w: 18, size: 9 },
    ]);
    expect(lines).toEqual([['IDF No:', '24NBOIM000123456'], ['Brake pads']]);
  });
});
