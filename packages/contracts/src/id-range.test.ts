import { describe, expect, it } from 'vitest';
import { MAX_ID } from './common';
import { generateOpenApi } from './openapi';
import { allEndpoints } from './registry';

/**
 * Issue 11's fuzz finding: ids between 2^31 and 2^53 reached PostgreSQL (integer) and answered 500.
 * Every numeric id a request carries (every reference, as the contract annotates them) is bounded
 * to the database's integer range in the document, so validation answers 400 before any query;
 * position ids (ClickHouse, up to 2^53) keep their own bound.
 */
interface Node {
  type?: string;
  maximum?: number;
  references?: string;
  [k: string]: unknown;
}

function numericReferences(node: unknown, out: Node[] = []): Node[] {
  if (Array.isArray(node)) for (const n of node) numericReferences(n, out);
  else if (node && typeof node === 'object') {
    const n = node as Node;
    if (n.references && (n.type === 'integer' || n.type === 'number')) out.push(n);
    for (const v of Object.values(n)) numericReferences(v, out);
  }
  return out;
}

describe('ids in requests', () => {
  it('are bounded to the database integer range (positions and events excepted: ClickHouse numbers up to 2^53)', () => {
    const doc = generateOpenApi(allEndpoints) as unknown as {
      paths: Record<string, Record<string, { parameters?: unknown; requestBody?: unknown }>>;
      components?: unknown;
    };
    const refs = numericReferences([
      Object.values(doc.paths).flatMap((p) => Object.values(p).map((op) => [op.parameters, op.requestBody])),
      doc.components,
    ]);
    expect(refs.length).toBeGreaterThan(50);
    const unbounded = refs.filter(
      (r) => r.references !== 'position' && r.references !== 'event' && !(typeof r.maximum === 'number' && r.maximum <= MAX_ID),
    );
    expect(unbounded.map((r) => r.references)).toEqual([]);
  });
});
