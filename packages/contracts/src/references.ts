import { z } from 'zod';
import { IdParam, MAX_ID } from './common';

/**
 * What an id a request carries refers to. Every id field of a request (path, query, body, nested
 * and in arrays) is annotated with `ref(kind, schema)`; the owning service checks each one against
 * the caller's company before use (404 like an unknown id), and the cross-company property test is
 * generated from these annotations (tools/stack/isolation). A field named like an id that is not a
 * reference says so with `notRef(schema, why)`.
 */
export const ReferenceKind = z.enum([
  'device',
  'group',
  'calendar',
  'geofence',
  'route',
  'journey',
  'journeyFlag',
  'user',
  'driver',
  'order',
  'maintenance',
  'computedAttribute',
  'deviceModel',
  'configuration',
  'draft',
  'truckOwner',
  'truck',
  'trackingUnit',
  'inventory',
  'event',
  'notification',
  'notificationRule',
  'command',
  'company',
  'cargo',
  'shipment',
  'document',
  'certificate',
  'complaint',
  'position',
  'report',
]);
export type ReferenceKind = z.infer<typeof ReferenceKind>;

export interface ReferenceMeta {
  references: ReferenceKind;
  /**
   * Whose entries the id may name: 'company' (default) the caller's company's and shared ones;
   * 'any' an entry of any company, checked for existence only (a complaint against another company).
   */
  scope?: 'company' | 'any';
  /** The field holds the referenced entry's unique id instead of its id (a device's uniqueId). */
  by?: 'uniqueId';
}

/** Marks an id schema as a reference to `kind` (see ReferenceMeta). */
export function ref<T extends z.ZodTypeAny>(kind: ReferenceKind, schema: T, opts: Omit<ReferenceMeta, 'references'> = {}): T {
  return withinDatabaseRange(kind, schema).meta({ references: kind, ...opts }) as T;
}

/**
 * A numeric id is a PostgreSQL integer (serial): one beyond MAX_ID names nothing and answers 400
 * instead of reaching the database. Position and event ids are ClickHouse numbers up to 2^53 and keep their own bound.
 */
function withinDatabaseRange<T extends z.ZodTypeAny>(kind: ReferenceKind, schema: T): T {
  return kind !== 'position' && kind !== 'event' && schema instanceof z.ZodNumber ? (schema.max(MAX_ID) as unknown as T) : schema;
}

/**
 * An optional reference as Traccar's clients write it: 0 (Java's default for a long) means none and
 * is read as null, as is null itself; left out, it is null.
 */
export function optionalRef(kind: ReferenceKind, opts: Omit<ReferenceMeta, 'references'> = {}) {
  return z
    .preprocess((v) => (v === 0 ? null : v), ref(kind, z.number().int().positive(), opts).nullable())
    .default(null)
    .describe('0 or null: none (Traccar clients write 0)');
}

/** Marks a field named like an id as no reference, saying why (the new entry's own identifier, ...). */
export function notRef<T extends z.ZodTypeAny>(schema: T, why: string): T {
  return schema.meta({ notReference: why }) as T;
}

/** Path parameters `{ id }` naming an entry of `kind`. */
export const idParam = (kind: ReferenceKind) => z.object({ id: ref(kind, IdParam.shape.id) });

/** The reference a schema node is annotated with, if any. */
export function referenceOf(schema: z.ZodTypeAny): ReferenceMeta | undefined {
  const meta = z.globalRegistry.get(schema) as
    { references?: ReferenceKind; scope?: ReferenceMeta['scope']; by?: ReferenceMeta['by'] } | undefined;
  return meta?.references
    ? { references: meta.references, ...(meta.scope ? { scope: meta.scope } : {}), ...(meta.by ? { by: meta.by } : {}) }
    : undefined;
}

const isNotReference = (schema: z.ZodTypeAny): boolean =>
  Boolean((z.globalRegistry.get(schema) as { notReference?: string } | undefined)?.notReference);

/** A path into a request part: object keys, and '[]' for every item of an array. */
export type RefPath = readonly string[];

export interface ReferenceSite extends ReferenceMeta {
  path: RefPath;
}

export interface ReferenceScan {
  references: ReferenceSite[];
  /** Id-like fields (name ending in Id/Ids, or "id") that carry neither ref() nor notRef(). */
  unannotated: RefPath[];
}

const ID_LIKE = /(^id|Id|Ids)$/;

/** Every reference in a request schema, and the id-like fields left without annotation. */
export function scanReferences(schema: z.ZodTypeAny | undefined): ReferenceScan {
  const out: ReferenceScan = { references: [], unannotated: [] };
  if (!schema) return out;
  const seen = new Set<z.ZodTypeAny>();
  const walk = (s: z.ZodTypeAny, path: string[], named: string | undefined): void => {
    const meta = referenceOf(s);
    if (meta) {
      out.references.push({ ...meta, path });
      return;
    }
    if (isNotReference(s)) return;
    const def = (s as unknown as { _zod: { def: Record<string, unknown> & { type: string } } })._zod.def;
    switch (def.type) {
      case 'object': {
        if (seen.has(s)) return;
        seen.add(s);
        for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodTypeAny>)) walk(v, [...path, k], k);
        seen.delete(s);
        return;
      }
      case 'array':
        return walk(def.element as z.ZodTypeAny, [...path, '[]'], named);
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        return walk(def.innerType as z.ZodTypeAny, path, named);
      case 'pipe':
        // preprocess and transform pipes: whichever side is a schema (a reference on either counts)
        for (const side of [def.in, def.out] as z.ZodTypeAny[]) if (side._zod.def.type !== 'transform') walk(side, path, named);
        return;
      case 'union':
        for (const o of def.options as z.ZodTypeAny[]) walk(o, path, named);
        return;
      case 'intersection':
        walk(def.left as z.ZodTypeAny, path, named);
        walk(def.right as z.ZodTypeAny, path, named);
        return;
      case 'number':
      case 'string':
      case 'int':
      case 'bigint':
        if (named !== undefined && ID_LIKE.test(named)) out.unannotated.push(path);
        return;
      default:
        return;
    }
  };
  walk(schema, [], undefined);
  // a field reached through several union options counts once
  const key = (r: ReferenceSite) => `${r.path.join('.')}:${r.references}`;
  out.references = [...new Map(out.references.map((r) => [key(r), r])).values()];
  const referenced = new Set(out.references.map((r) => r.path.join('.')));
  out.unannotated = [...new Map(out.unannotated.filter((p) => !referenced.has(p.join('.'))).map((p) => [p.join('.'), p])).values()];
  return out;
}

export interface EndpointReferences {
  params: ReferenceSite[];
  query: ReferenceSite[];
  body: ReferenceSite[];
  /** Id-like fields without annotation, as 'params.id', 'body.items.[].deviceId'. */
  unannotated: string[];
}

const byEndpoint = new WeakMap<object, EndpointReferences>();

/** The references of an endpoint's request (computed once per endpoint definition). */
export function endpointReferences(def: {
  request?: { params?: z.ZodTypeAny; query?: z.ZodTypeAny; body?: z.ZodTypeAny };
}): EndpointReferences {
  const hit = byEndpoint.get(def);
  if (hit) return hit;
  const parts = {
    params: scanReferences(def.request?.params),
    query: scanReferences(def.request?.query),
    body: scanReferences(def.request?.body),
  };
  const paramsShape = (def.request?.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const unannotated = [
    ...Object.keys(paramsShape)
      .filter((k) => !parts.params.references.some((r) => r.path[0] === k) && !isNotReference(paramsShape[k] as z.ZodTypeAny))
      .map((k) => `params.${k}`),
    ...(['params', 'query', 'body'] as const).flatMap((p) => parts[p].unannotated.map((path) => `${p}.${path.join('.')}`)),
  ];
  const r: EndpointReferences = {
    params: parts.params.references,
    query: parts.query.references,
    body: parts.body.references,
    unannotated: [...new Set(unannotated)],
  };
  byEndpoint.set(def, r);
  return r;
}

/** The values at a path (every item where the path crosses an array); null and absent values are skipped. */
export function valuesAt(value: unknown, path: RefPath): unknown[] {
  if (value === undefined || value === null) return [];
  if (!path.length) return Array.isArray(value) ? value.filter((v) => v !== null && v !== undefined) : [value];
  const [head, ...rest] = path;
  if (head === '[]') return Array.isArray(value) ? value.flatMap((v) => valuesAt(v, rest)) : [];
  if (typeof value !== 'object') return [];
  return valuesAt((value as Record<string, unknown>)[head!], rest);
}
