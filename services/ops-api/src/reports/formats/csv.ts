import type { Readable } from 'node:stream';
import type { Column, ReportTable } from './table';
import { textStream } from './text-stream';

const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180 field: quoted (quotes doubled) only when it holds a quote, comma or line break. */
export const csvField = (s: string): string => (NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** A CSV value: JSON units (ISO times, milliseconds), true/false, attributes as JSON, empty for null. */
function csvValue<T>(c: Column<T>, item: T): string {
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
 * CSV with a header row of the JSON field names, LF line ends, written as rows arrive: each row is
 * written straight into the output text (no per-row arrays or records). Same text as csv-stringify
 * with its defaults (formats.test.ts compares them).
 */
export function csvStream<T>(table: ReportTable<T>, batches: AsyncIterable<T[]>): Readable {
  const { columns } = table;
  const last = columns.length - 1;
  return textStream(batches, {
    head: `${columns.map((c) => csvField(c.key)).join(',')}\n`,
    item(item) {
      let line = '';
      for (let i = 0; i < last; i++) line += `${csvValue(columns[i]!, item)},`;
      return `${line}${csvValue(columns[last]!, item)}\n`;
    },
    separator: '',
    tail: '',
  });
}
