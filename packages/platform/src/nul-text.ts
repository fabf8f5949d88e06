import type { FastifyRequest } from 'fastify';
import { AppError } from './errors';
import { counter } from './metrics';

const refused = counter('http_nul_text_refused_total', 'Requests refused because a text (key or value) held a NUL character', ['service', 'in']);

const MAX_DEPTH = 64;

/** The path of the first string (value or object key) holding U+0000, or undefined. */
function nulPath(value: unknown, path: string[] = [], depth = 0): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = nulPath(value[i], [...path, String(i)], depth + 1);
      if (hit) return hit;
    }
    return undefined;
  }
  // a stream (a body the gateway passes through) or bytes are not text; parsed JSON, forms and
  // query strings (fast-querystring's objects have a prototype of their own) are
  if (typeof (value as { pipe?: unknown }).pipe === 'function' || ArrayBuffer.isView(value) || value instanceof Date) return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (k.includes('\u0000')) return [...path, k];
    const hit = nulPath(v, [...path, k], depth + 1);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * A preValidation hook: text never carries NUL (U+0000; PostgreSQL text and jsonb cannot store it,
 * and no field of the API means it), in the path, the query or a parsed body, keys included
 * (`\u0000` inside JSON attributes). 400 in the shared shape, naming the field.
 */
export function refuseNulText(service: string) {
  return async (req: FastifyRequest): Promise<void> => {
    for (const [part, value] of [['params', req.params], ['querystring', req.query], ['body', req.body]] as const) {
      const path = nulPath(value);
      if (!path) continue;
      refused.inc({ service, in: part });
      const where = path.join('.');
      req.log.info({ in: part, path: where }, 'NUL character in the request refused');
      throw new AppError('VALIDATION_FAILED', `${part}${where ? '.' + where : ''}: must not contain a NUL character (U+0000)`, [
        { in: part, path: where, message: 'must not contain a NUL character' },
      ]);
    }
  };
}
