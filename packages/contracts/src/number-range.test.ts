import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateOpenApi } from './openapi';
import { allEndpoints } from './registry';
import { MaintenanceInput } from './maintenance';

/**
 * Issue 23's fuzz finding: a maintenance with `period: 5e-324` (finite, positive) made
 * GET /maintenance-schedule answer 500 for its company: next-due arithmetic overflowed. Every
 * number a request carries (parameters and bodies, through every schema they reference) has a lower
 * and an upper bound in the contract, so validation answers 400 before a service computes with it.
 * zod's numbers are finite already (Infinity and NaN are refused); the bounds are what keeps the
 * finite extremes out. Left to their service: the free-form values of `attributes`, and a
 * geofence's radius and corridor width, which the geofence service checks with its own error codes
 * (radius_out_of_range, width_out_of_range: services/geofence/src/fences/area-validation.ts).
 */
interface Node {
  type?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  [k: string]: unknown;
}
const CHECKED_BY_THEIR_SERVICE = new Set(['GeofenceInput.radius', 'GeofenceAttributes.polylineDistance']);

function unbounded(doc: { components: { schemas: Record<string, unknown> } }, roots: unknown[]): string[] {
  const out: string[] = [];
  const visited = new Set<string>();
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) return node.forEach((n) => walk(n, where));
    if (!node || typeof node !== 'object') return;
    const n = node as Node;
    if (n.$ref) {
      const name = n.$ref.split('/').pop()!;
      if (!visited.has(name)) {
        visited.add(name);
        walk(doc.components.schemas[name], name);
      }
      return;
    }
    if (n.type === 'number' || n.type === 'integer') {
      const low = typeof n.minimum === 'number' || typeof n.exclusiveMinimum === 'number';
      const high = typeof n.maximum === 'number' || typeof n.exclusiveMaximum === 'number';
      if ((!low || !high) && !CHECKED_BY_THEIR_SERVICE.has(where)) out.push(where);
    }
    for (const [k, v] of Object.entries(n)) {
      if (k === 'additionalProperties') continue; // attributes: free-form values
      walk(v, k === 'properties' || k === 'items' || k === 'anyOf' || k === 'oneOf' || k === 'allOf' ? where : `${where}.${k}`);
    }
  };
  for (const r of roots) walk(r, '');
  return out;
}

describe('numbers in requests', () => {
  it('are bounded below and above wherever a request carries one', () => {
    const doc = generateOpenApi(allEndpoints) as unknown as {
      paths: Record<string, Record<string, { parameters?: unknown; requestBody?: unknown }>>;
      components: { schemas: Record<string, unknown> };
    };
    const found = unbounded(
      doc,
      Object.values(doc.paths).flatMap((p) => Object.values(p).flatMap((op) => [op.parameters, op.requestBody])),
    );
    expect(found).toEqual([]);
  });

  it("refuse the sweep's period of 5e-324 and keep the ones maintenance needs", () => {
    const input = { name: 'Service', type: 'totalDistance', start: 0, period: 5e-324 };
    expect(MaintenanceInput.safeParse(input).success).toBe(false);
    expect(MaintenanceInput.safeParse({ ...input, period: 1e300 }).success).toBe(false);
    expect(MaintenanceInput.safeParse({ ...input, period: 10_000_000 }).success).toBe(true);
    expect(z.number().safeParse(Infinity).success).toBe(false); // zod's numbers are finite
  });
});
