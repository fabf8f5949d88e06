import { createLogger, AppError } from '@corridor/platform';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { idfPdf, sampleIdf } from '../../test/fixtures/idf-documents';
import { deflateBombPdf } from '../../test/fixtures/deflate-bomb';
import { pdfTextReader } from '../documents/pdf-text';
import { ParserPool } from './parser-pool';
import { scanInflated } from './inflate-scan';
import { defaultParserSettings, type ParserSettings } from './settings';

/**
 * The reader processes (issue 23): documents are read in child processes that are killed and
 * replaced past a memory or time limit; a deflate bomb is refused before pdf.js unpacks it.
 * Real child processes, real pdf.js.
 */
const logger = createLogger('test', 'silent');
const MiB = 1024 * 1024;
const pools: ParserPool[] = [];
const poolWith = (over: Partial<ParserSettings> = {}): ParserPool => {
  const p = new ParserPool({ ...defaultParserSettings(), ...over }, logger);
  pools.push(p);
  return p;
};
const refusal = async (p: Promise<unknown>): Promise<AppError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
};

let idf: Uint8Array;
let bomb: Buffer;
beforeAll(async () => {
  idf = await idfPdf(sampleIdf());
  bomb = await deflateBombPdf(200 * MiB);
}, 120_000);
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

describe('inflate scan', () => {
  it('measures a FlateDecode bomb up to the cap and stops there; a wrapped one is counted as unmeasured', async () => {
    expect(bomb.length).toBeLessThan(1 * MiB);
    expect(scanInflated(bomb, 64 * MiB)).toMatchObject({ overCap: true, streams: 1 });
    expect(scanInflated(bomb, 256 * MiB)).toMatchObject({ overCap: false, inflated: 200 * MiB, streams: 1 });
    expect(scanInflated(await deflateBombPdf(1 * MiB, { wrapped: true }), 64 * MiB)).toMatchObject({
      overCap: false,
      streams: 0,
      unmeasured: 1,
    });
    expect(scanInflated(idf, 64 * MiB)).toMatchObject({ overCap: false, unmeasured: 0 });
  });
});

describe('ParserPool', () => {
  it('reads a PDF in a reader process as this thread would', async () => {
    const pool = poolWith();
    expect(await pool.run('pdfText', idf)).toEqual(await pdfTextReader().read(idf));
    const csv = Buffer.from(
      'idf_number,importer_name,importer_pin,consignor,country_of_origin,port_of_discharge,currency,invoice_value,hs_code,description,quantity,unit,value\n' +
        '24NBOIM000123456,Athi River Importers Ltd,P053456789Z,Guangzhou Auto Parts,China,Mombasa,USD,100,8708.30.00,Brake pads,1,PCS,100\n',
    );
    expect((await pool.run('idfExport', { format: 'csv', bytes: csv })).fields.idfNumber.value).toBe('24NBOIM000123456');
  }, 120_000);

  it('refuses a 200 MiB deflate bomb before pdf.js unpacks it (422 naming the inflated-size limit), and reads the next document', async () => {
    const pool = poolWith();
    const err = await refusal(pool.run('pdfText', bomb));
    expect(err).toMatchObject({ code: 'UNPROCESSABLE', details: { reason: 'inflated_limit', limitMiB: 64 } });
    expect(err.message).toMatch(/64 MiB/);
    expect((await pool.run('pdfText', idf)).pages).toBe(1);
  }, 120_000);

  it('kills a reader past its memory limit (a bomb the scan cannot measure) and replaces it', async () => {
    // time enough that only memory can stop it, even on a busy machine
    const pool = poolWith({ memoryBytes: 256 * MiB, timeoutMs: 170_000 });
    const err = await refusal(pool.run('pdfText', await deflateBombPdf(400 * MiB, { wrapped: true })));
    expect(err).toMatchObject({ code: 'UNPROCESSABLE', details: { reason: 'memory_limit', limitMiB: 256 } });
    expect((await pool.run('pdfText', idf)).pages).toBe(1);
  }, 180_000);

  it('kills a reader past its time limit (422) and replaces it', async () => {
    const pool = poolWith({ timeoutMs: 1 });
    const err = await refusal(pool.run('pdfText', idf));
    expect(err).toMatchObject({ code: 'UNPROCESSABLE', details: { reason: 'time_limit' } });
  }, 120_000);

  it('keeps at most `queue` documents waiting: one more answers 503 at once', async () => {
    const pool = poolWith({ processes: 1, queue: 1 });
    const first = pool.run('pdfText', idf);
    const second = pool.run('pdfText', idf);
    const third = await refusal(pool.run('pdfText', idf));
    expect(third).toMatchObject({ code: 'UNAVAILABLE' });
    expect((await first).pages).toBe(1);
    expect((await second).pages).toBe(1);
  }, 120_000);
});
