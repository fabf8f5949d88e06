import { HS_CODE, KRA_PIN, TRA_TIN, type IdfExtraction, type IdfLineItem } from '@corridor/contracts';

/** ISO 4217 codes seen on East African import declarations. */
const CURRENCIES = new Set([
  'KES',
  'TZS',
  'UGX',
  'RWF',
  'BIF',
  'SSP',
  'CDF',
  'ETB',
  'ZMW',
  'MWK',
  'MZN',
  'ZAR',
  'USD',
  'EUR',
  'GBP',
  'CNY',
  'JPY',
  'INR',
  'AED',
  'SAR',
  'CHF',
  'CAD',
  'AUD',
  'SGD',
  'HKD',
  'KRW',
  'TRY',
  'EGP',
  'NGN',
  'PKR',
  'THB',
  'MYR',
  'IDR',
  'SEK',
  'NOK',
  'DKK',
  'NZD',
]);

export const checkIdfNumber = (v: string): string[] =>
  /^[A-Z0-9]{8,20}$/.test(v.replace(/[\s/-]/g, '').toUpperCase()) ? [] : [`"${v}" is not an IDF number (8 to 20 letters and digits)`];

export const checkPin = (v: string): string[] =>
  KRA_PIN.test(v.toUpperCase()) || TRA_TIN.test(v) ? [] : [`"${v}" is neither a KRA PIN (e.g. P051234567X) nor a TRA TIN (9 digits)`];

export const checkCurrency = (v: string): string[] =>
  CURRENCIES.has(v.toUpperCase()) ? [] : [`"${v}" is not a known ISO 4217 currency code`];

/** HS code shape: 6, 8 or 10 digits, in chapter 01–97 (chapter 77 is reserved). */
function hsCodeIssue(code: string): string | undefined {
  if (!HS_CODE.test(code)) return `HS code "${code}" is not 6, 8 or 10 digits (e.g. 8704.21.90)`;
  const chapter = Number(code.slice(0, 2));
  if (chapter < 1 || chapter > 97 || chapter === 77) return `HS code "${code}" is in no HS chapter (01–97)`;
  return undefined;
}

export function checkLineItems(items: IdfLineItem[]): string[] {
  if (!items.length) return ['no line items'];
  const issues: string[] = [];
  items.forEach((it, i) => {
    const hs = hsCodeIssue(it.hsCode);
    if (hs) issues.push(`line ${i + 1}: ${hs}`);
    if (!(it.quantity > 0)) issues.push(`line ${i + 1}: quantity must be positive`);
    if (!(it.value >= 0)) issues.push(`line ${i + 1}: value must not be negative`);
    if (!it.description.trim()) issues.push(`line ${i + 1}: no description`);
  });
  return issues;
}

/** The line values must add up to the invoice value (within 1%, at least one unit, for rounding). */
export function checkTotals(invoiceValue: number, items: IdfLineItem[]): string[] {
  if (!(invoiceValue > 0)) return ['the invoice value must be positive'];
  if (!items.length) return [];
  const sum = Math.round(items.reduce((s, it) => s + it.value, 0) * 100) / 100;
  const tolerance = Math.max(1, invoiceValue * 0.01);
  return Math.abs(sum - invoiceValue) <= tolerance ? [] : [`the line values add up to ${sum}, the invoice value is ${invoiceValue}`];
}

/** True when every field that has a check passed it and every required field is present. */
export function extractionValid(fields: IdfExtraction['fields']): boolean {
  return Object.values(fields).every((f) => f.value !== null && f.valid !== false);
}
