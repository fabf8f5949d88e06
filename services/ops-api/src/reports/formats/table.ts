/**
 * How a report's items become rows of a CSV or a spreadsheet: one column per field. CSV headers are
 * the JSON field names and values stay in the JSON units (ISO times, milliseconds); the spreadsheet
 * shows labels with units, times as date cells and durations as [h]:mm:ss. A 'json' value is
 * serialized when written; a 'jsonText' value is JSON text already (e.g. attributes as stored).
 */
export type CellKind = 'text' | 'number' | 'integer' | 'time' | 'duration' | 'boolean' | 'json' | 'jsonText';

export interface Column<T> {
  /** JSON field name (CSV header). */
  key: string;
  /** Spreadsheet header, with the unit. */
  label: string;
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

/** A column reading the item's own field. */
export function field<T>(key: keyof T & string, label: string, kind: CellKind): Column<T> {
  return { key, label, kind, get: (item) => item[key] };
}
