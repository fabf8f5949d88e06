import type { DocumentRecord, IdfExtraction } from '@corridor/contracts';
import { AppError } from '@corridor/platform';
import type { PdfTextReader } from '../documents/pdf-text';
import { extractIdfFromText } from './idf-pdf';
import { extractIdfFromCsv, extractIdfFromJson } from './idf-structured';

/** Without these a cargo cannot be created; everything else may be completed later. */
const required = ['idfNumber', 'importerName'] as const;

/** Reads a stored IDF (PDF with text, JSON or CSV export) into an extraction report; 422 when it cannot. */
export async function readIdf(doc: DocumentRecord, bytes: Buffer, pdf: PdfTextReader): Promise<IdfExtraction> {
  let extraction: IdfExtraction;
  if (doc.contentType === 'application/pdf') extraction = extractIdfFromText((await pdf.read(bytes)).lines);
  else if (doc.contentType === 'application/json') extraction = extractIdfFromJson(bytes.toString('utf8'));
  else if (doc.contentType === 'text/csv' || doc.contentType === 'text/plain') extraction = extractIdfFromCsv(bytes.toString('utf8'));
  else if (doc.contentType.startsWith('image/')) {
    throw new AppError('UNPROCESSABLE', 'The IDF is an image: it has no text layer', {
      reason: 'no_text_layer',
      check: 'Check the document quality: a photo or scan has no text layer. Upload the IDF PDF as exported from the portal, its JSON/CSV export, or run OCR first.',
    });
  } else {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `An IDF must be a PDF, JSON or CSV document, not ${doc.contentType}`, { accepted: ['application/pdf', 'application/json', 'text/csv'] });
  }
  const missing = required.filter((k) => extraction.fields[k].value === null);
  if (missing.length) {
    throw new AppError('UNPROCESSABLE', `The document does not read as an IDF: ${missing.join(', ')} not found`, {
      reason: 'missing_fields', missing, extraction,
      check: 'Check that this is an Import Declaration Form and that the document is complete and legible (labels such as "IDF No" and "Importer Name" must be readable).',
    });
  }
  return extraction;
}
