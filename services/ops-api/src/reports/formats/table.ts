import type { ReportColumnKey } from '@corridor/contracts';

/**
 * How a report's items become rows of a CSV or a spreadsheet: one column per field, headed in the
 * reader's language (packages/contracts report-columns.ts) with the unit they read it in, values in
 * those units and rounded as people read them (cells.ts). The kinds say what a value is:
 * 'distance' metres, 'speed' knots, 'coordinate' degrees, 'time' an ISO time or epoch ms,
 * 'duration' ms; a 'json' value is serialized when written, a 'jsonText' value is JSON text already.
 */
export type CellKind =
  'text' | 'number' | 'integer' | 'distance' | 'speed' | 'coordinate' | 'time' | 'duration' | 'boolean' | 'json' | 'jsonText';

export interface Column<T> {
  /** JSON field name. */
  key: string;
  /** What the header calls it. */
  label: ReportColumnKey;
  kind: CellKind;
  get(item: T): unknown;
}

export interface ReportTable<T> {
  /** Sheet name and file name stem, e.g. 'trips'. */
  name: string;
  columns: Column<T>[];
  /** An item as JSON text (default JSON.stringify), for items that are not the JSON object themselves. */
  json?(item: T): string;
}

/** A column reading the item's own field, headed by the label of that name unless another is given. */
export function field<T>(key: keyof T & string, kind: CellKind, label: ReportColumnKey = key as ReportColumnKey): Column<T> {
  return { key, label, kind, get: (item) => item[key] };
}
