import { describe, expect, it } from 'vitest';
import { allEndpoints } from './registry';
import { errorCodes } from './errors';
import { generateOpenApi } from './openapi';

const doc = generateOpenApi(allEndpoints) as unknown as {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  'x-error-catalogue': Record<string, unknown>;
  components: { schemas: Record<string, unknown> };
};

describe('the contract', () => {
  it('has unique endpoint ids and unique method + path pairs', () => {
    const ids = allEndpoints.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const routes = allEndpoints.map((e) => `${e.method} ${e.path}`);
    expect(routes.filter((r, i) => routes.indexOf(r) !== i)).toEqual([]);
  });

  it('generates OpenAPI 3.1 with every endpoint as an operation', () => {
    expect(doc.openapi).toBe('3.1.0');
    for (const e of allEndpoints) {
      const op = doc.paths['/api' + e.path]?.[e.method];
      expect(op, `${e.method} ${e.path}`).toBeDefined();
      expect(op!.operationId).toBe(e.id);
      expect(Object.keys(op!.responses).length).toBeGreaterThan(0);
    }
    const ops = Object.values(doc.paths).flatMap((p) => Object.values(p));
    expect(ops).toHaveLength(allEndpoints.length);
  });

  it('lists every error code of the catalogue in the document', () => {
    expect(Object.keys(doc['x-error-catalogue']).sort()).toEqual([...errorCodes].sort());
    expect(doc.components.schemas.Error).toBeDefined();
  });

  it('declares path parameters for every {placeholder}', () => {
    for (const e of allEndpoints) {
      const names = [...e.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      if (!names.length) continue;
      const shape = (e.request?.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
      for (const n of names) expect(Object.keys(shape), `${e.id} lacks param ${n}`).toContain(n);
    }
  });
});
