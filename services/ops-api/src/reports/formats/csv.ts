import { Readable, pipeline, type Transform } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Column, ReportTable } from './table';

/** A CSV value: JSON units (ISO times, milliseconds), attributes as JSON, empty for null. */
function csvValue<T>(c: Column<T>, item: T): string | number | boolean | null {
  const v = c.get(item);
  if (v === null || v === undefined) return null;
  if (c.kind === 'json') return JSON.stringify(v);
  return v as string | number | boolean;
}

/** RFC 4180 CSV (csv-stringify) with a header row of the JSON field names, written as rows arrive. */
export function csvStream<T>(table: ReportTable<T>, batches: AsyncIterable<T[]>): Transform {
  async function* rows(): AsyncGenerator<(string | number | boolean | null)[]> {
    for await (const batch of batches) for (const item of batch) yield table.columns.map((c) => csvValue(c, item));
  }
  const stringifier = stringify({
    header: true,
    columns: table.columns.map((c) => c.key),
    cast: { boolean: (v) => (v ? 'true' : 'false') },
  });
  return pipeline(Readable.from(rows()), stringifier, () => undefined);
}
