import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';
import { LinkedListQuery } from './object-links';

export const ComputedAttributeType = z.enum(['String', 'Number', 'Boolean']);
/** A type as written: Traccar's web app sends "string", "number", "boolean"; read in any case, answered capitalised. */
const ComputedAttributeTypeInput = z.preprocess(
  (v) => (typeof v === 'string' ? (ComputedAttributeType.options.find((o) => o.toLowerCase() === v.toLowerCase()) ?? v) : v),
  ComputedAttributeType,
);

/**
 * Computed attribute, in Traccar's shape: `expression` (JEXL syntax: arithmetic, comparisons,
 * && || !, the ternary a ? b : c, string literals, position fields and attributes by name) is
 * evaluated on each position and stored under `attribute`, typed by `type`. Evaluated by a
 * sandboxed expression library, never by eval.
 */
export const ComputedAttribute = z
  .object({
    id: z.number().int().positive(),
    description: z.string(),
    attribute: z.string(),
    expression: z.string(),
    type: ComputedAttributeType,
    priority: z.number().int(),
    companyId: z.number().int().nullable(),
  })
  .meta({ id: 'ComputedAttribute' });
export type ComputedAttribute = z.infer<typeof ComputedAttribute>;

export const ComputedAttributeInput = z
  .object({
    description: z.string().min(1).max(256),
    attribute: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'an attribute name (letters, digits, _)'),
    expression: z
      .string()
      .min(1)
      .max(1000)
      .describe('Must parse; names such as constructor or __proto__ are refused (400 naming expression)'),
    type: ComputedAttributeTypeInput,
    priority: z.number().int().min(-1000).max(1000).default(0),
    companyId: OwnerCompanyInput,
  })
  .meta({ id: 'ComputedAttributeInput' });
export type ComputedAttributeInput = z.infer<typeof ComputedAttributeInput>;

export const ComputedTestQuery = z.object({ deviceId: ref('device', z.coerce.number().int().positive()) });
/** The computed value as Traccar answers it: the bare typed value (a computation without a value answers 204). */
export const ComputedTestResult = z.union([z.string(), z.number(), z.boolean()]).meta({ id: 'ComputedTestResult' });
export type ComputedTestResult = z.infer<typeof ComputedTestResult>;

export const computedAttributesEndpoints = [
  ...resourceEndpoints({
    id: 'attributes.computed',
    path: '/attributes/computed',
    noun: 'computed attribute',
    kind: 'computedAttribute',
    tags: ['attributes'],
    entity: ComputedAttribute,
    input: ComputedAttributeInput,
    query: LinkedListQuery,
    write: trackingWriters,
    companyScoped: true,
    description: 'Traccar computed attributes. Keyword searches description, attribute and expression.',
  }),
  defineEndpoint({
    id: 'attributes.computed.test',
    method: 'post',
    path: '/attributes/computed/test',
    service: 'ops-api',
    tags: ['attributes'],
    companyScoped: true,
    summary: "Evaluate a computed attribute on a device's latest position",
    access: trackingWriters,
    description:
      'Evaluates the given attribute (not saved) against the latest position of deviceId; 404 when the device has no position, ' +
      '400 naming expression when it fails to parse or evaluate. As Traccar: the bare value (JSON), or 204 when the expression yields nothing.',
    request: { query: ComputedTestQuery, body: ComputedAttributeInput },
    responses: { 200: { description: 'The typed value', schema: ComputedTestResult }, 204: { description: 'No value', schema: null } },
  }),
] as const;
