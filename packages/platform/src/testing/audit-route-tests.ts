import { describe, expect, it } from 'vitest';
import { fastifyPath, type EndpointDef } from '@corridor/contracts';
import type { App } from '../app';

export interface AuditQueryTestOptions {
  app: () => App;
  /** An audit endpoint of the contract (`auditEndpoints`). */
  endpoint: EndpointDef;
  /** Headers of a caller allowed to read it. */
  headers: () => Promise<Record<string, string>>;
  /** An entity type of another service, which this trail refuses. */
  foreignEntityType: string;
}

/** Bad list queries every audit endpoint answers 400 to, naming the field in the message and the details. */
export function runAuditQueryTests(opts: AuditQueryTestOptions): void {
  const url = fastifyPath(opts.endpoint);
  describe(`GET ${opts.endpoint.path} (bad queries)`, () => {
    it.each([
      ['limit', '?limit=0'],
      ['limit', '?limit=1001'],
      ['offset', '?offset=-1'],
      ['to', '?from=2025-03-02T00:00:00Z&to=2025-03-01T00:00:00Z'],
      ['from', '?from=yesterday'],
      ['entityType', `?entityType=${opts.foreignEntityType}`],
      ['entityId', `?entityId=${'9'.repeat(65)}`],
      ['actorUserId', '?actorUserId=abc'],
      ['action', '?action='],
      ['action.1', '?action=journey.create,drop%20table'],
    ])('answers 400 naming %s (%s)', async (field, query) => {
      const res = await opts.app().inject({ method: 'GET', url: url + query, headers: await opts.headers() });
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json<{ error: { code: string; message: string; details: { path: string }[] } }>();
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.details.map((d) => d.path)).toContain(field);
      expect(body.error.message).toContain(field);
    });
  });
}
