import type { CargoCorrection, IdfExtraction, IdfLineItem } from '@corridor/contracts';
import { checkCurrency, checkIdfNumber, checkLineItems, checkPin, checkTotals, extractionValid } from './idf-checks';

type Fields = IdfExtraction['fields'];
type Key = keyof Fields;

/** How a typed value is written as the reader writes it (IDF numbers and PINs without spaces, codes upper-case). */
const normalise: { [K in Key]?: (v: NonNullable<Fields[K]['value']>) => NonNullable<Fields[K]['value']> } = {
  idfNumber: (v) => v.replace(/\s+/g, '').toUpperCase(),
  importerPin: (v) => v.replace(/\s+/g, '').toUpperCase(),
  currency: (v) => v.toUpperCase(),
  lineItems: (items) => items.map((it) => ({ ...it, unit: it.unit.toUpperCase() })),
};

/** The checks of idf-pdf.ts and idf-structured.ts, by field; the totals check reads the line items. */
function checksOf(fields: Fields): { [K in Key]?: (v: NonNullable<Fields[K]['value']>) => string[] } {
  const items: IdfLineItem[] = fields.lineItems.value ?? [];
  return {
    idfNumber: checkIdfNumber,
    importerPin: checkPin,
    currency: checkCurrency,
    invoiceValue: (v) => checkTotals(v, items),
    lineItems: checkLineItems,
  };
}

/**
 * The extraction after a person's corrections: a corrected field takes the typed value with
 * confidence 1; every field with a value is checked again (a corrected line total changes the
 * invoice value's check); a field still missing keeps its issue. Warnings from reading stay.
 */
export function correctExtraction(x: IdfExtraction, c: CargoCorrection): IdfExtraction {
  const fields = { ...x.fields } as Record<Key, Fields[Key]>;
  for (const k of Object.keys(c) as Key[]) {
    const v = c[k];
    if (v === undefined) continue;
    const n = normalise[k] as ((v: unknown) => unknown) | undefined;
    fields[k] = { value: (n ? n(v) : v) as never, confidence: 1, valid: null, issues: [] };
  }
  const checks = checksOf(fields as Fields) as Record<Key, ((v: unknown) => string[]) | undefined>;
  for (const k of Object.keys(fields) as Key[]) {
    const f = fields[k];
    if (f.value === null) continue;
    const check = checks[k];
    const issues = check ? check(f.value) : [];
    fields[k] = { ...f, valid: check ? issues.length === 0 : null, issues };
  }
  return { ...x, fields: fields as Fields, valid: extractionValid(fields as Fields) };
}
