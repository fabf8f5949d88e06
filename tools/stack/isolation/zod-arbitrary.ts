import fc from 'fast-check';
import { z } from 'zod';
import { scanReferences } from '@corridor/contracts';

/**
 * A fast-check arbitrary of request values a zod schema of the contract accepts (its input side),
 * for the cross-company property test: objects with their required fields and, now and then, the
 * optional ones; strings and numbers within the schema's bounds and formats (read through
 * z.toJSONSchema). Cross-field rules (superRefine) are not modelled: callers filter with
 * safeParse. No library generates zod 4 input values into fast-check (zod-fast-check is for zod 3,
 * zod-schema-faker generates output values through faker), hence this.
 */
type Def = { type: string } & Record<string, unknown>;
const defOf = (s: z.ZodTypeAny): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

interface Bounds {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  type?: string;
  minLength?: number;
  maxLength?: number;
  format?: string;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
}
function bounds(s: z.ZodTypeAny): Bounds {
  try {
    return z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }) as Bounds;
  } catch {
    return {};
  }
}

const isOptional = (s: z.ZodTypeAny): boolean => ['optional', 'default', 'prefault'].includes(defOf(s).type);
/** Whether a schema holds references: arrays of them are never empty and nullable ones not null (the test puts ids there). */
const holdsRefs = (s: z.ZodTypeAny): boolean => scanReferences(s).references.length > 0;

function stringArb(s: z.ZodTypeAny): fc.Arbitrary<string> {
  const b = bounds(s);
  const min = b.minLength ?? 0;
  const max = Math.min(b.maxLength ?? 24, Math.max(min, 24));
  switch (b.format) {
    case 'email':
      return fc.constantFrom('a@corridor.test', 'driver.one@example.com');
    case 'uri':
      return fc.constantFrom('https://example.com/hook', 'http://example.org/x');
    case 'uuid':
      return fc.uuid({ version: 4 });
    case 'date-time':
      return fc
        .date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2026-12-31T00:00:00Z'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
  }
  if (b.pattern) return fc.stringMatching(new RegExp(b.pattern)).filter((v) => v.length >= min && v.length <= (b.maxLength ?? Infinity));
  return fc
    .string({
      minLength: Math.max(min, 1),
      maxLength: Math.max(max, min, 1),
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 -'.split('')),
    })
    .map((v) => (v.trim().length >= min ? v : 'x'.repeat(Math.max(min, 1))));
}

function numberArb(s: z.ZodTypeAny): fc.Arbitrary<number> {
  const b = bounds(s);
  const lo = b.minimum ?? (b.exclusiveMinimum !== undefined ? b.exclusiveMinimum + (b.type === 'integer' ? 1 : 1e-6) : -1000);
  const hi = Math.min(
    b.maximum ?? (b.exclusiveMaximum !== undefined ? b.exclusiveMaximum - (b.type === 'integer' ? 1 : 1e-6) : 100_000),
    lo + 100_000,
  );
  return b.type === 'integer'
    ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) })
    : fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
}

/** The arbitrary for one schema (input values). */
export function arbitraryOf(s: z.ZodTypeAny, depth = 0): fc.Arbitrary<unknown> {
  const def = defOf(s);
  if (depth > 8) return fc.constant(undefined);
  const inner = (x: unknown) => arbitraryOf(x as z.ZodTypeAny, depth + 1);
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, z.ZodTypeAny>;
      const keys = Object.keys(shape);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const k of keys) record[k] = inner(shape[k]);
      return fc.record(record, { requiredKeys: keys.filter((k) => !isOptional(shape[k]!)) });
    }
    case 'array': {
      const b = bounds(s);
      const min = Math.max(b.minItems ?? 0, holdsRefs(def.element as z.ZodTypeAny) ? 1 : 0);
      return fc.array(inner(def.element), { minLength: min, maxLength: Math.min(b.maxItems ?? min + 2, min + 2) });
    }
    case 'tuple':
      return fc.tuple(...(def.items as z.ZodTypeAny[]).map(inner));
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def.innerType);
    case 'nullable':
      return holdsRefs(s) ? inner(def.innerType) : fc.option(inner(def.innerType), { nil: null, freq: 4 });
    case 'pipe': {
      const from = defOf(def.in as z.ZodTypeAny).type === 'transform' ? def.out : def.in;
      // z.stringbool(): a string that reads as a boolean
      if (defOf(def.out as z.ZodTypeAny).type === 'boolean' && defOf(def.in as z.ZodTypeAny).type === 'string')
        return fc.constantFrom('true', 'false');
      return inner(from);
    }
    case 'union':
      return fc.oneof(...(def.options as z.ZodTypeAny[]).map(inner));
    case 'intersection':
      return inner(def.left);
    case 'lazy':
      return inner((def.getter as () => z.ZodTypeAny)());
    case 'string':
      return stringArb(s);
    case 'number':
    case 'int':
      return numberArb(s);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries as Record<string, string>));
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]));
    case 'null':
      return fc.constant(null);
    case 'record':
      return fc.constant({});
    case 'date':
      return fc.date({ noInvalidDate: true });
    case 'unknown':
    case 'any':
      return fc.constant({ note: 'generated' });
    default:
      return fc.constant(undefined);
  }
}
