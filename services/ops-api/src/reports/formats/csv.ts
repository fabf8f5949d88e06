import type { Readable } from 'node:stream';
import { cellFormats } from './cells';
import type { Presentation } from './presentation';
import type { CellKind, ReportTable } from './table';
import { textStream } from './text-stream';

const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180 field: quoted (quotes doubled) only when it holds a quote, comma or line break. */
const csvField = (s: string): string => (NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/**
 * CSV for a reader (presentation.ts): a header row of the columns' names in their language with
 * their units, values as cells.ts shows them, LF line ends, written as rows arrive (no per-row
 * arrays or records). RFC 4180 quoting, as csv-stringify writes it (formats.test.ts compares them).
 */
export function csvStream<T>(table: ReportTable<T>, batches: AsyncIterable<T[]>, p: Presentation): Readable {
  const { columns } = table;
  const cells = cellFormats(columns, p);
  const last = columns.length - 1;
  const value = (i: number, item: T): string => csvField(cells[i]!.csv(columns[i]!.get(item)));
  return textStream(batches, {
    head: `${cells.map((c) => csvField(c.header)).join(',')}\n`,
    item(item) {
      let line = '';
      for (let i = 0; i < last; i++) line += `${value(i, item)},`;
      return `${line}${value(last, item)}\n`;
    },
    separator: '',
    tail: '',
  });
}

/** A column of a CSV in the API's own terms (apiCsvStream): the JSON field name and its value as the API gives it. */
export interface ApiColumn<T> {
  key: string;
  kind: CellKind;
  get(item: T): unknown;
}

/** A value as the API has it: JSON units (ISO times, ms, metres, knots), true/false, objects as JSON, empty for null. */
function apiValue<T>(c: ApiColumn<T>, item: T): string {
  const v = c.get(item);
  if (v === null || v === undefined) return '';
  if (c.kind === 'json') return csvField(JSON.stringify(v));
  switch (typeof v) {
    case 'string':
      return csvField(v);
    case 'number':
    case 'bigint':
      return `${v}`;
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return csvField(JSON.stringify(v));
  }
}

/**
 * CSV for programs rather than people (Traccar's position export, /positions/csv): a header of the
 * JSON field names and values in the API's units, as csv-stringify writes them.
 */
export function apiCsvStream<T>(columns: readonly ApiColumn<T>[], batches: AsyncIterable<T[]>): Readable {
  const last = columns.length - 1;
  return textStream(batches, {
    head: `${columns.map((c) => csvField(c.key)).join(',')}\n`,
    item(item) {
      let line = '';
      for (let i = 0; i < last; i++) line += `${apiValue(columns[i]!, item)},`;
      return `${line}${apiValue(columns[last]!, item)}\n`;
    },
    separator: '',
    tail: '',
  });
}
