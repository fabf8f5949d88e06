import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';

/**
 * Traccar's published OpenAPI description (traccar-openapi-6.14.5.yaml beside this file, from
 * Traccar's repository at v6.14.5, Apache License 2.0): the operations it lists and, for each
 * answer it documents, a validator of the body built from its own schemas.
 */

type Json = Record<string, unknown>;

interface TraccarParameter {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  schema: Json;
}

export interface TraccarOperation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** the path as written in the document, without /api ("/devices/{id}") */
  path: string;
  parameters: TraccarParameter[];
  /** the documented request media type and its schema (refs resolved to a component name where there is one) */
  requestBody?: { mediaType: string; schema: Json; component?: string };
  /** status ('200', '204', 'default') → media type → schema (empty object: no schema) */
  responses: Record<string, Record<string, Json | undefined>>;
}

export interface TraccarDocument {
  version: string;
  operations: TraccarOperation[];
  components: Record<string, Json>;
}

const file = new URL('./traccar-openapi-6.14.5.yaml', import.meta.url);
const methods = ['get', 'post', 'put', 'delete'] as const;

export function loadTraccarDocument(): TraccarDocument {
  const doc = parse(readFileSync(file, 'utf8')) as {
    info: { version: string };
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Record<string, Json> };
  };
  const operations: TraccarOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const body = (op.requestBody as { content?: Record<string, { schema?: Json }> } | undefined)?.content;
      const [mediaType, media] = Object.entries(body ?? {})[0] ?? [];
      const schema = media?.schema ?? {};
      const ref = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop() : undefined;
      operations.push({
        operationId: op.operationId as string,
        method,
        path,
        parameters: ((op.parameters as Json[] | undefined) ?? []).map((p) => ({
          name: p.name as string,
          in: p.in as TraccarParameter['in'],
          required: p.required === true,
          schema: (p.schema as Json) ?? {},
        })),
        ...(mediaType
          ? { requestBody: { mediaType, schema: ref ? doc.components.schemas[ref]! : schema, ...(ref ? { component: ref } : {}) } }
          : {}),
        responses: Object.fromEntries(
          Object.entries(op.responses as Record<string, { content?: Record<string, { schema?: Json }> }>).map(([status, r]) => [
            status,
            Object.fromEntries(Object.entries(r.content ?? {}).map(([type, c]) => [type, c.schema])),
          ]),
        ),
      });
    }
  }
  return { version: doc.info.version, operations, components: doc.components.schemas };
}

/** Replaces `#/components/schemas/X` by `#/$defs/X`, so a schema can carry the components along. */
function localRefs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(localRefs);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v).map(([k, x]) => [
        k,
        k === '$ref' && typeof x === 'string' ? x.replace('#/components/schemas/', '#/$defs/') : localRefs(x),
      ]),
    );
  }
  return v;
}

export interface BodyValidator {
  /** the problems of a body against Traccar's schema, empty when it conforms */
  (body: unknown): string[];
}

/**
 * Validators of bodies against Traccar's schemas (JSON Schema 2020-12, as OpenAPI 3.1 writes them).
 * `closed` names components whose answers must carry no field beyond Traccar's (the issue asks for
 * Traccar's shape of Position and Event, not only a compatible one).
 */
export function schemaValidators(document: TraccarDocument, closed: readonly string[] = []) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const defs = localRefs(document.components) as Record<string, Json>;
  for (const name of closed) defs[name] = { ...defs[name], additionalProperties: false };
  const cache = new Map<Json, ValidateFunction>();
  return (schema: Json): BodyValidator => {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile({ ...(localRefs(schema) as Json), $defs: defs });
      cache.set(schema, validate);
    }
    const v = validate;
    return (body) =>
      v(body)
        ? []
        : (v.errors ?? []).map(
            (e) =>
              `${e.instancePath || '(root)'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` '${String(e.params.additionalProperty)}'` : ''}`,
          );
  };
}
