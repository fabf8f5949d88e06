import { CONTAINER_NUMBER, iso6346CheckDigitOk, type TransportDocumentExtraction } from '@corridor/contracts';
import { AppError } from '@corridor/platform';
import { field, findLabelled, type Found } from '../documents/labelled-fields';

/** Labels of an ocean bill of lading and of a CMR consignment note (its numbered boxes named in words). */
const labels = {
  // "Bill of Lading" alone is the document's title, not the number's label
  billOfLadingNumber: /^(B\/?L\s*(No|Number)?|Bill of Lading\s*(No|Number)|BL\s*(No|Number))$/i,
  cmrNumber: /^(CMR\s*(No|Number)?|Consignment Note\s*(No|Number)?)$/i,
  shipper: /^(Shipper|Shipper\/Exporter|(\d{1,2}\.?\s*)?Sender(\s*\(name, address, country\))?|Consignor)$/i,
  consignee: /^((\d{1,2}\.?\s*)?Consignee(\s*\(name, address, country\))?)$/i,
  portOfLoading: /^(Port of Loading|(\d{1,2}\.?\s*)?Place (and date )?of taking over( the goods)?)$/i,
  portOfDischarge: /^(Port of Discharge)$/i,
  placeOfDelivery: /^((\d{1,2}\.?\s*)?Place (designated )?(of|for) delivery( of the goods)?)$/i,
  vessel: /^((Ocean\s+)?Vessel(\s*Name)?|Vessel\s*\/\s*Voyage)$/i,
  voyage: /^(Voyage\s*(No|Number)?|Voy\.?\s*No)$/i,
};

/** A document number has a digit: a word beside a label ("ORIGINAL", "COPY") is not one. */
const hasDigit = (v: string): boolean => /\d/.test(v);
const numberChecks = { billOfLadingNumber: hasDigit, cmrNumber: hasDigit };

const CONTAINER_IN_TEXT = /\b([A-Z]{3}[UJZ])[\s-]?(\d{6})[\s-]?(\d)\b/g;

/** Reads a bill of lading or a CMR from its text lines; 422 when it is neither. */
export function extractTransportDocument(documentId: string, lines: string[][]): TransportDocumentExtraction {
  const text = lines.map((l) => l.join('  ')).join('\n');
  const isCmr = /\bCMR\b|Convention on the Contract for the International Carriage of Goods by Road/i.test(text);
  const isBl = /Bill of Lading|\bB\/L\b/i.test(text);
  if (!isCmr && !isBl) {
    throw new AppError('UNPROCESSABLE', 'The document reads as neither a bill of lading nor a CMR consignment note', {
      reason: 'unknown_document',
      check:
        'Check that the upload is the bill of lading or the CMR itself, complete and with its text layer (words "Bill of Lading" or "CMR" visible).',
    });
  }
  const f = findLabelled(lines, labels, numberChecks);
  const warnings: string[] = [];

  // "MAERSK ELBA / 412W" in one vessel cell: split the voyage off when it has no field of its own
  let vessel: Found | undefined = f.vessel;
  let voyage: Found | undefined = f.voyage;
  if (vessel && !voyage) {
    const m = /^(.+?)\s*(?:\/|\bV\.?\s*|\bVOY\.?\s*)\s*([0-9][0-9A-Z]{1,7})$/i.exec(vessel.value);
    if (m) {
      vessel = { value: m[1]!.trim(), confidence: vessel.confidence };
      voyage = { value: m[2]!.toUpperCase(), confidence: vessel.confidence - 0.1 };
    }
  }

  const containers = [...new Set([...text.matchAll(CONTAINER_IN_TEXT)].map((m) => `${m[1]}${m[2]}${m[3]}`))];
  const containerField = field(containers.length ? { value: containers, confidence: 0.9 } : undefined, (list) =>
    list.filter((c) => !CONTAINER_NUMBER.test(c) || !iso6346CheckDigitOk(c)).map((c) => `${c}: the ISO 6346 check digit does not match`),
  );
  if (!containers.length) warnings.push('no container numbers were found');

  const upper = (x: Found | undefined) => x && { value: x.value.replace(/\s+/g, '').toUpperCase(), confidence: x.confidence };
  const refShape = (v: string) => (/^[A-Z0-9/-]{4,30}$/.test(v) ? [] : [`"${v}" does not look like a document number`]);
  const fields: TransportDocumentExtraction['fields'] = {
    billOfLadingNumber: isBl ? field(upper(f.billOfLadingNumber), refShape) : field(undefined),
    cmrNumber: isCmr ? field(upper(f.cmrNumber), refShape) : field(undefined),
    shipper: field(f.shipper),
    consignee: field(f.consignee),
    portOfLoading: field(f.portOfLoading),
    portOfDischarge: field(f.portOfDischarge),
    placeOfDelivery: field(f.placeOfDelivery),
    vessel: field(vessel),
    voyage: field(voyage),
    containerNumbers: containerField,
  };
  if (isBl && !f.billOfLadingNumber) warnings.push('no B/L number was found');
  if (isCmr && !f.cmrNumber) warnings.push('no CMR number was found');
  return { documentId, documentType: isCmr && !f.billOfLadingNumber ? 'cmr' : 'bill_of_lading', fields, warnings };
}
