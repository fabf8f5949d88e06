import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { counter } from './metrics';

const refused = counter(
  'http_unstorable_input_refused_total',
  'Requests refused because a text held a NUL character, a number was out of range, or a body was nested too deeply',
  ['service', 'in', 'reason'],
);

/** Deepest nesting a request may carry: GeoJSON needs 5, no field of the API needs more than a few. */
const MAX_INPUT_DEPTH = 64;

type Reason = 'nul' | 'number' | 'depth';
interface Finding {
  reason: Reason;
  path: string[];
}

const SENTENCE: Record<Reason, string> = {
  nul: 'must not contain a NUL character (U+0000)',
  number: 'must be a number within range (a finite double)',
  depth: `must not be nested more than ${MAX_INPUT_DEPTH} levels deep`,
};

/**
 * The first value of a request no store can hold, or undefined: a string (value or object key)
 * holding U+0000 (PostgreSQL text and jsonb refuse it), a number JSON.parse made infinite
 * (`1e400`; it would be stored as null), or nesting deeper than MAX_INPUT_DEPTH (PostgreSQL's jsonb
 * and the validators recurse, so thousands of levels crashed them into a 500).
 */
function unstorable(value: unknown, path: string[] = []): Finding | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? { reason: 'nul', path } : undefined;
  if (typeof value === 'number') return Number.isFinite(value) || Number.isNaN(value) ? undefined : { reason: 'number', path };
  if (value === null || typeof value !== 'object') return undefined;
  if (path.length >= MAX_INPUT_DEPTH) return { reason: 'depth', path };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = unstorable(value[i], [...path, String(i)]);
      if (hit) return hit;
    }
    return undefined;
  }
  // a stream (a body the gateway passes through) or bytes are not text; parsed JSON, forms and
  // query strings (fast-querystring's objects have a prototype of their own) are
  if (typeof (value as { pipe?: unknown }).pipe === 'function' || ArrayBuffer.isView(value) || value instanceof Date) return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return { reason: 'nul', path: [...path, k] };
    const hit = unstorable(v, [...path, k]);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * A preValidation hook: the path, the query and a parsed body never carry what no store can hold
 * (see `unstorable`); 400 in the shared shape, naming the field, before any validator or query runs.
 */
export function refuseUnstorableInput(service: string) {
  return async (req: FastifyRequest): Promise<void> => {
    for (const [part, value] of [
      ['params', req.params],
      ['querystring', req.query],
      ['body', req.body],
    ] as const) {
      const hit = unstorable(value);
      if (!hit) continue;
      refused.inc({ service, in: part, reason: hit.reason });
      // a depth finding's path is 64 segments long: name its start
      const shown = hit.reason === 'depth' ? hit.path.slice(0, 4).concat('…') : hit.path;
      const where = shown.join('.');
      req.log.info({ in: part, path: where, reason: hit.reason }, 'unstorable value in the request refused');
      throw new AppError('VALIDATION_FAILED', `${part}${where ? '.' + where : ''}: ${SENTENCE[hit.reason]}`, [
        { in: part, path: where, message: SENTENCE[hit.reason] },
      ]);
    }
  };
}
