import { describe, expect, it } from 'vitest';
import { iso6346CheckDigitOk } from '@corridor/contracts';
import { pdfTextReader } from '../documents/pdf-text';
import { billOfLadingPdf, cmrPdf, idfPdf, sampleIdf } from '../../test/fixtures/idf-documents';
import { extractTransportDocument } from './transport-document';

const reader = pdfTextReader();
const ID = '00000000-0000-4000-8000-000000000002';
const read = async (bytes: Uint8Array) => extractTransportDocument(ID, (await reader.read(bytes)).lines);

describe('bill of lading and CMR extraction', () => {
  it('reads a bill of lading: number, parties, ports, vessel and voyage, container numbers with their check digits', async () => {
    const x = await read(await billOfLadingPdf());
    expect(x.documentType).toBe('bill_of_lading');
    expect(x.fields.billOfLadingNumber).toMatchObject({ value: 'MAEU240612345', valid: true });
    expect(x.fields.shipper.value).toBe('Guangzhou Auto Parts Co. Ltd, Guangzhou, China');
    expect(x.fields.consignee.value).toBe('Athi River Importers Ltd, Nairobi, Kenya');
    expect(x.fields.portOfLoading.value).toBe('Nansha, China');
    expect(x.fields.portOfDischarge.value).toBe('Mombasa, Kenya');
    expect(x.fields.placeOfDelivery.value).toBe('ICD Embakasi, Nairobi');
    expect(x.fields.vessel.value).toBe('MAERSK ELBA');
    expect(x.fields.voyage.value).toBe('412W');
    expect(x.fields.containerNumbers).toMatchObject({ value: ['MSKU1234565', 'TGHU9876542'], valid: true });
    expect(x.fields.cmrNumber.value).toBeNull();
    for (const k of ['billOfLadingNumber', 'shipper', 'consignee', 'vessel'] as const) expect(x.fields[k].confidence).toBeGreaterThan(0.8);
  });

  it('takes the B/L number from its label, not from the title "BILL OF LADING" and the word beside it', async () => {
    for (const title of [
      [
        [50, 'BILL OF LADING'],
        [400, 'ORIGINAL'],
      ],
      [
        [50, 'BILL OF LADING'],
        [300, 'NON-NEGOTIABLE'],
        [450, 'COPY'],
      ],
    ] as [number, string][][]) {
      const x = await read(await billOfLadingPdf(undefined, title));
      expect(x.fields.billOfLadingNumber, title.map(([, t]) => t).join(' ')).toMatchObject({ value: 'MAEU240612345', valid: true });
      expect(x.warnings).not.toContain('no B/L number was found');
    }
    // a document whose only candidate is the title word: no number, said so
    const lines = [
      ['BILL OF LADING', 'ORIGINAL'],
      ['Shipper', 'Guangzhou Auto Parts Co. Ltd'],
    ];
    const x = extractTransportDocument(ID, lines);
    expect(x.fields.billOfLadingNumber.value).toBeNull();
    expect(x.warnings).toContain('no B/L number was found');
    expect(extractTransportDocument(ID, [['Bill of Lading No', 'MEDU 8823410']]).fields.billOfLadingNumber.value).toBe('MEDU8823410');
  });

  it('flags a container number whose ISO 6346 check digit is wrong', async () => {
    expect(iso6346CheckDigitOk('MSKU1234566')).toBe(false);
    const x = await read(await billOfLadingPdf(['MSKU1234566']));
    expect(x.fields.containerNumbers).toMatchObject({
      value: ['MSKU1234566'],
      valid: false,
      issues: [expect.stringMatching(/check digit/)],
    });
  });

  it('reads a CMR: number, sender, consignee, places of taking over and delivery (values under their box labels)', async () => {
    const x = await read(await cmrPdf());
    expect(x.documentType).toBe('cmr');
    expect(x.fields.cmrNumber.value).toBe('KE-2406-00871');
    expect(x.fields.shipper.value).toBe('Pwani Freight Movers Ltd, Mombasa, Kenya');
    expect(x.fields.consignee.value).toBe('Kigali Hardware Supplies Ltd, Kigali, Rwanda');
    expect(x.fields.placeOfDelivery.value).toBe('Kigali, Rwanda');
    expect(x.fields.portOfLoading.value).toBe('Mombasa, Kenya, 12.06.2024');
    expect(x.fields.containerNumbers.value).toEqual(['CSQU3054383']);
    expect(x.fields.shipper.confidence).toBeLessThan(0.9); // read from the line under its label
  });

  it('answers 422 for a document that is neither', async () => {
    await expect(read(await idfPdf(sampleIdf()))).rejects.toMatchObject({ code: 'UNPROCESSABLE', details: { reason: 'unknown_document' } });
  });
});
