import { parse } from 'csv-parse/sync';
import { IdfStructuredExport, type IdfExtraction } from '@corridor/contracts';
import { AppError } from '@corridor/platform/errors';
import { field } from '../documents/labelled-fields';
import { checkCurrency, checkIdfNumber, checkLineItems, checkPin, checkTotals, extractionValid } from './idf-checks';

/** Fields read from a structured export are taken as written: the reader is sure, the checks still run. */
const SURE = 0.99;

const badStructure = (message: string, issues: unknown): AppError =>
  new AppError('UNPROCESSABLE', message, {
    reason: 'bad_structure',
    issues,
    check:
      'Check the export: JSON as IdfStructuredExport (see the API schema), or CSV with the columns idf_number, importer_name, importer_pin, consignor, country_of_origin, port_of_discharge, currency, invoice_value, hs_code, description, quantity, unit, value (one row per line item).',
  });

function extractionFromExport(e: IdfStructuredExport, format: 'json' | 'csv', warnings: string[] = []): IdfExtraction {
  const sure = <T>(value: T) => ({ value, confidence: SURE });
  const items = e.items.map((it) => ({ ...it, hsCode: it.hsCode.trim(), unit: it.unit.trim().toUpperCase() }));
  const fields: IdfExtraction['fields'] = {
    idfNumber: field(sure(e.idfNumber.trim().toUpperCase()), checkIdfNumber),
    importerName: field(sure(e.importer.name.trim())),
    importerPin: field(sure(e.importer.pin.trim().toUpperCase()), checkPin),
    consignor: field(sure(e.consignor.trim())),
    countryOfOrigin: field(sure(e.countryOfOrigin.trim())),
    portOfDischarge: field(sure(e.portOfDischarge.trim())),
    invoiceValue: field(sure(e.invoice.value), (v) => checkTotals(v, items)),
    currency: field(sure(e.invoice.currency.trim().toUpperCase()), checkCurrency),
    lineItems: field(sure(items), checkLineItems),
  };
  return { format, fields, valid: extractionValid(fields), warnings };
}

export function extractIdfFromJson(text: string): IdfExtraction {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw badStructure('The JSON export could not be parsed', [{ message: err instanceof Error ? err.message : String(err) }]);
  }
  const r = IdfStructuredExport.safeParse(raw);
  if (!r.success)
    throw badStructure(
      'The JSON export is not an IDF export',
      r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  return extractionFromExport(r.data, 'json');
}

const headerColumns = [
  'idf_number',
  'importer_name',
  'importer_pin',
  'consignor',
  'country_of_origin',
  'port_of_discharge',
  'currency',
  'invoice_value',
] as const;

export function extractIdfFromCsv(text: string): IdfExtraction {
  let rows: Record<string, string>[];
  try {
    rows = parse(text, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, trim: true, bom: true });
  } catch (err) {
    throw badStructure('The CSV export could not be parsed', [{ message: err instanceof Error ? err.message : String(err) }]);
  }
  const first = rows[0];
  if (!first) throw badStructure('The CSV export has no rows', []);
  const warnings: string[] = [];
  for (const col of headerColumns)
    if (rows.some((r) => r[col] !== first[col])) warnings.push(`column ${col} differs between rows; the first row's value is used`);
  const r = IdfStructuredExport.safeParse({
    idfNumber: first.idf_number,
    importer: { name: first.importer_name, pin: first.importer_pin },
    consignor: first.consignor,
    countryOfOrigin: first.country_of_origin,
    portOfDischarge: first.port_of_discharge,
    invoice: { value: first.invoice_value?.replace(/,/g, ''), currency: first.currency },
    items: rows.map((row) => ({
      hsCode: row.hs_code,
      description: row.description,
      quantity: row.quantity?.replace(/,/g, ''),
      unit: row.unit,
      value: row.value?.replace(/,/g, ''),
    })),
  });
  if (!r.success)
    throw badStructure(
      'The CSV export is missing IDF columns or values',
      r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  return extractionFromExport(r.data, 'csv', warnings);
}

/** An IDF's structured export (JSON or CSV bytes, UTF-8) read into an extraction; 422 when it is not one. Run in the parser processes for uploads. */
export async function readIdfExport(format: 'json' | 'csv', bytes: Uint8Array): Promise<IdfExtraction> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  return format === 'json' ? extractIdfFromJson(text) : extractIdfFromCsv(text);
}
