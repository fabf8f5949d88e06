import { z } from 'zod';
import { errorCodes } from './errors';

export const ErrorBody = z
  .object({
    error: z.object({
      code: z.enum(errorCodes as [string, ...string[]]),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;

const EARLIEST_TIME = Date.UTC(1900, 0, 1);
const LATEST_TIME = Date.UTC(10000, 0, 1);

/**
 * ISO 8601 date-time with offset, as every API query and body uses, between 1900 and 9999 (UTC):
 * the stores keep any year, but a year like 0023 came back from PostgreSQL as a time JavaScript
 * cannot print (the API fuzz run's 500 on POST /disciplinary/admin), and no freight record is older.
 */
export const IsoDateTime = z.iso.datetime({ offset: true }).refine((s) => {
  const t = Date.parse(s);
  // text that is no time at all is the format check's to report (one issue per field)
  return Number.isNaN(t) || (t >= EARLIEST_TIME && t < LATEST_TIME);
}, 'a time between 1900-01-01 and 9999-12-31 (UTC)');

export const Pagination = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** The largest id the database holds (PostgreSQL integer / serial): a larger one names nothing. */
export const MAX_ID = 2147483647;
/** An id in a path or query (coerced from text), within the database's integer range. */
export const QueryId = z.coerce.number().int().positive().max(MAX_ID);
/** An id in a JSON body, within the database's integer range. */
export const BodyId = z.number().int().positive().max(MAX_ID);
export const IdParam = z.object({ id: QueryId });
export const Attributes = z.record(z.string(), z.unknown());

/** Query values that may repeat (deviceId=1&deviceId=2) arrive as a string or an array. */
export const repeated = <T extends z.ZodTypeAny>(item: T) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item));

export function page<T extends z.ZodTypeAny>(item: T, id: string) {
  return z.object({ items: z.array(item), total: z.number().int(), limit: z.number().int(), offset: z.number().int() }).meta({ id });
}

/**
 * The object without its null fields. Where Traccar's schema gives a field a type (a string), an
 * absent value is left out of the answer rather than written as null.
 */
export function withoutNulls<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], null> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null)) as { [K in keyof T]?: Exclude<T[K], null> };
}
