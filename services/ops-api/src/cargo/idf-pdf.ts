import type { IdfExtraction, IdfLineItem } from '@corridor/contracts';
import { CONFIDENCE_INLINE, CONFIDENCE_OWN_CELL, field, findLabelled, parseAmount } from '../documents/labelled-fields';
import { checkCurrency, checkIdfNumber, checkLineItems, checkPin, checkTotals, extractionValid } from './idf-checks';

/** Labels an Import Declaration Form uses (KenTrade / TRA layouts and common variants). */
const labels = {
  idfNumber: /^(IDF\s*(No|Number|Ref(erence)?(\s*No)?)|Import Declaration( Form)?\s*(No|Number))$/i,
  importerName: /^(Importer(\s*Name)?|Name of Importer|Consignee(\s*Name)?)$/i,
  importerPin: /^(Importer(['’]s)?\s*(KRA\s*)?(PIN|TIN)|(KRA\s*)?PIN(\s*No)?|TIN(\s*No)?)$/i,
  consignor: /^(Consignor|Exporter|Supplier|Seller)(['’]s)?(\s*Name)?$/i,
  countryOfOrigin: /^(Country of Origin|Origin Country|Country of Supply)$/i,
  portOfDischarge: /^(Port of (Discharge|Entry|Arrival)|Discharge Port)$/i,
  invoiceValue: /^((Total\s+)?(Invoice|FOB|CIF|Customs)\s+Value|Invoice\s+(Total|Amount)|Total\s+Value)$/i,
  currency: /^((Invoice\s+)?Currency(\s+Code)?)$/i,
};

const HS_LIKE = /^[0-9][0-9A-Z.]{3,13}$/;

function itemFromCells(cells: string[]): IdfLineItem | undefined {
  const c = /^\d{1,3}$/.test(cells[0] ?? '') && cells.length >= 6 ? cells.slice(1) : cells; // leading item number
  if (c.length < 5 || !HS_LIKE.test(c[0]!)) return undefined;
  const quantity = parseAmount(c[c.length - 3]!);
  const value = parseAmount(c[c.length - 1]!);
  const unit = c[c.length - 2]!;
  if (quantity === undefined || value === undefined || !/^[A-Za-z]{1,8}$/.test(unit)) return undefined;
  return { hsCode: c[0]!, description: c.slice(1, c.length - 3).join(' '), quantity, unit: unit.toUpperCase(), value };
}

function itemFromText(text: string): IdfLineItem | undefined {
  const m = /^(?:\d{1,3}\s+)?([0-9][0-9A-Z.]{3,13})\s+(.+?)\s+([\d,]+(?:\.\d+)?)\s+([A-Za-z]{1,8})\s+([\d,]+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return undefined;
  return { hsCode: m[1]!, description: m[2]!, quantity: parseAmount(m[3]!)!, unit: m[4]!.toUpperCase(), value: parseAmount(m[5]!)! };
}

/** The goods table: rows after a header naming the HS code and the description, up to the totals. */
function lineItems(lines: string[][]): { items: IdfLineItem[]; confidence: number } | undefined {
  const header = lines.findIndex((cells) => cells.some((c) => /\bHS\b|H\.S\.|Tariff/i.test(c)) && cells.some((c) => /Desc/i.test(c)));
  if (header < 0) return undefined;
  const items: IdfLineItem[] = [];
  let fromCells = 0;
  for (const cells of lines.slice(header + 1)) {
    if (/^(Total|Grand Total|Sub-?total)\b/i.test(cells[0] ?? '')) break;
    const byCell = itemFromCells(cells);
    const it = byCell ?? itemFromText(cells.join(' '));
    if (!it) {
      if (items.length) break;
      continue;
    }
    if (byCell) fromCells++;
    items.push(it);
  }
  if (!items.length) return undefined;
  return { items, confidence: fromCells === items.length ? CONFIDENCE_OWN_CELL : 0.75 };
}

/** Reads an IDF from a PDF's text lines. Fields that are absent come back with confidence 0. */
export function extractIdfFromText(lines: string[][]): IdfExtraction {
  const f = findLabelled(lines, labels);
  const warnings: string[] = [];
  let invoice = f.invoiceValue ? { raw: f.invoiceValue.value, confidence: f.invoiceValue.confidence } : undefined;
  let currency = f.currency ? { value: f.currency.value.toUpperCase(), confidence: f.currency.confidence } : undefined;
  let invoiceValue: { value: number; confidence: number } | undefined;
  if (invoice) {
    // "USD 12,500.00" or "12,500.00 USD": the currency may ride with the amount
    const m = /^([A-Z]{3})?\s*([\d,]+(?:\.\d+)?)\s*([A-Z]{3})?$/.exec(invoice.raw.trim());
    const amount = m ? parseAmount(m[2]!) : undefined;
    if (amount === undefined) warnings.push(`invoice value "${invoice.raw}" is not a number`);
    else invoiceValue = { value: amount, confidence: invoice.confidence };
    const cur = m?.[1] ?? m?.[3];
    if (cur && !currency) currency = { value: cur, confidence: Math.min(invoice.confidence, CONFIDENCE_INLINE) - 0.1 };
    if (cur && currency && cur !== currency.value)
      warnings.push(`the invoice value is in ${cur} but the currency field says ${currency.value}`);
    invoice = undefined;
  }
  const items = lineItems(lines);
  const itemList = items?.items ?? [];
  if (!items) warnings.push('no goods table (HS code, description, quantity, unit, value) was found');

  const fields: IdfExtraction['fields'] = {
    idfNumber: field(
      f.idfNumber && { value: f.idfNumber.value.replace(/\s+/g, '').toUpperCase(), confidence: f.idfNumber.confidence },
      checkIdfNumber,
    ),
    importerName: field(f.importerName),
    importerPin: field(
      f.importerPin && { value: f.importerPin.value.replace(/\s+/g, '').toUpperCase(), confidence: f.importerPin.confidence },
      checkPin,
    ),
    consignor: field(f.consignor),
    countryOfOrigin: field(f.countryOfOrigin),
    portOfDischarge: field(f.portOfDischarge),
    invoiceValue: field(invoiceValue, (v) => checkTotals(v, itemList)),
    currency: field(currency, checkCurrency),
    lineItems: field(items && { value: items.items, confidence: items.confidence }, checkLineItems),
  };
  return { format: 'pdf', fields, valid: extractionValid(fields), warnings };
}
