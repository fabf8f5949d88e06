import type { DocumentRecord, IdfExtraction } from '@corridor/contracts';
import { AppError } from '@corridor/platform';
import type { PdfTextReader } from '../documents/pdf-text';
import { extractIdfFromText } from './idf-pdf';
import { readIdfExport } from './idf-structured';

/** Reads an IDF's structured export (JSON or CSV) into an extraction: in the parser processes for uploads (src/parsers). */
type IdfExportReader = (format: 'json' | 'csv', bytes: Uint8Array) => Promise<IdfExtraction>;

/** What readIdf reads uploads with: PDF text and structured exports. */
export interface IdfReaders {
  pdf: PdfTextReader;
  idfExport: IdfExportReader;
}

/** Both in this thread: for tests of the extraction itself (the service reads through src/parsers). */
export const inThreadIdfReaders = (pdf: PdfTextReader): IdfReaders => ({ pdf, idfExport: readIdfExport });

/** Without these a cargo cannot be created; everything else may be completed later. */
const required = ['idfNumber', 'importerName'] as const;

/** Reads a stored IDF (PDF with text, JSON or CSV export) into an extraction report; 422 when it cannot. */
export async function readIdf(doc: DocumentRecord, bytes: Buffer, readers: IdfReaders): Promise<IdfExtraction> {
  let extraction: IdfExtraction;
  if (doc.contentType === 'application/pdf') extraction = extractIdfFromText((await readers.pdf.read(bytes)).lines);
  else if (doc.contentType === 'application/json') extraction = await readers.idfExport('json', bytes);
  else if (doc.contentType === 'text/csv' || doc.contentType === 'text/plain') extraction = await readers.idfExport('csv', bytes);
  else if (doc.contentType.startsWith('image/')) {
    throw new AppError('UNPROCESSABLE', 'The IDF is an image: it has no text layer', {
      reason: 'no_text_layer',
      check:
        'Check the document quality: a photo or scan has no text layer. Upload the IDF PDF as exported from the portal, its JSON/CSV export, or run OCR first.',
    });
  } else {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `An IDF must be a PDF, JSON or CSV document, not ${doc.contentType}`, {
      accepted: ['application/pdf', 'application/json', 'text/csv'],
    });
  }
  const missing = required.filter((k) => extraction.fields[k].value === null);
  if (missing.length) {
    throw new AppError('UNPROCESSABLE', `The document does not read as an IDF: ${missing.join(', ')} not found`, {
      reason: 'missing_fields',
      missing,
      extraction,
      check:
        'Check that this is an Import Declaration Form and that the document is complete and legible (labels such as "IDF No" and "Importer Name" must be readable).',
    });
  }
  return extraction;
}
