import { describe, expect, it } from 'vitest';
import { allRoles, fastifyPath, type EndpointDef, type Role } from '@corridor/contracts';
import type { App } from '../app';
import { asUser, userWith } from './identity';

export interface CommonRouteTestOptions {
  /** The app under test (already built, not listening). */
  app: () => App;
  endpoint: EndpointDef;
  /** Concrete path parameters to use (e.g. { id: '1' }). */
  params?: Record<string, string>;
  /** A body the endpoint would reject with 400, if it takes one. */
  invalidBody?: unknown;
}

const concretePath = (def: EndpointDef, params: Record<string, string> = {}): string =>
  fastifyPath(def).replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => params[name] ?? '1');

/**
 * The checks every route passes, written once (no identity → 401, a role the contract does not
 * allow → 403, a bad body → 400), all in the one error shape.
 */
export function runCommonRouteTests(opts: CommonRouteTestOptions): void {
  const def = opts.endpoint;
  const url = concretePath(def, opts.params);
  describe(`${def.method.toUpperCase()} ${def.path} (common)`, () => {
    if (def.access !== 'public') {
      it('answers 401 without an identity', async () => {
        const res = await opts.app().inject({ method: def.method.toUpperCase() as 'GET', url, payload: opts.invalidBody as never });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
      });
    }
    if (Array.isArray(def.access)) {
      const denied = allRoles.filter((r) => r !== 'admin' && !(def.access as Role[]).includes(r));
      if (denied.length) {
        it(`answers 403 to ${denied.join(', ')}`, async () => {
          for (const role of denied) {
            const res = await opts.app().inject({
              method: def.method.toUpperCase() as 'GET',
              url,
              headers: await asUser(userWith([role], 101)),
              payload: opts.invalidBody as never,
            });
            expect(res.statusCode, role).toBe(403);
            expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
          }
        });
      }
    }
    if (opts.invalidBody !== undefined) {
      it('answers 400 to an invalid body, naming the field', async () => {
        const res = await opts.app().inject({
          method: def.method.toUpperCase() as 'GET',
          url,
          headers: await asUser(userWith(['admin'])),
          payload: opts.invalidBody as never,
        });
        expect(res.statusCode).toBe(400);
        const body = res.json() as { error: { code: string; details: unknown[] } };
        expect(body.error.code).toBe('VALIDATION_FAILED');
        expect(Array.isArray(body.error.details)).toBe(true);
      });
    }
  });
}
