import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, allRoles, fastifyPath, type EndpointDef, type Role } from '@corridor/contracts';
import { createUser, startGateway, tokenFor, type Harness } from './harness';
import { startStubUpstream } from './stub-upstream';

/**
 * The role matrix: EVERY endpoint of the contract, called through the gateway with every role and
 * without credentials. Upstream services are stub listeners that answer 200 to anything (so only
 * the gateway's decision is under test); the gateway's own endpoints run for real. Allowed means
 * neither 401 nor 403 (a 400 for the empty body is fine) and, for a proxied endpoint, that the
 * request reached the service carrying the caller's identity and no credentials; denied means 403
 * and nothing reached the service; without credentials 401, and never 401 on a public endpoint.
 */
let h: Harness;
let stub: Awaited<ReturnType<typeof startStubUpstream>>;
const tokens = new Map<Role, { token: string; userId: number }>();

beforeAll(async () => {
  stub = await startStubUpstream();
  h = await startGateway({
    env: {
      INGEST_URL: stub.url,
      JOURNEY_URL: stub.url,
      GEOFENCE_URL: stub.url,
      OPS_API_URL: stub.url,
      RATE_LIMIT_IP_MAX: '100000',
      RATE_LIMIT_USER_MAX: '100000',
    },
  });
  for (const role of allRoles) {
    const companyRole = !['admin', 'association_officer', 'association_analyst'].includes(role);
    const u = await createUser(h, [role], companyRole ? 101 : null);
    tokens.set(role, { token: await tokenFor(h, u.id), userId: u.id });
  }
});
afterAll(async () => {
  await h?.close();
  await stub?.close();
});

const isAllowed = (def: EndpointDef, role: Role): boolean =>
  def.access === 'public' || def.access === 'authenticated' || role === 'admin' || def.access.includes(role);

const concrete = (def: EndpointDef): string => fastifyPath(def).replace(/:(\w+)/g, '999999');

async function call(def: EndpointDef, authorization?: string) {
  const hasBody = def.method !== 'get' && def.request?.body !== undefined;
  return h.gateway.app.inject({
    method: def.method.toUpperCase() as 'GET',
    url: concrete(def),
    headers: authorization ? { authorization } : {},
    ...(hasBody ? { payload: {} } : {}),
  });
}

describe('role matrix over every endpoint of the contract', () => {
  it("covers the whole contract, the gateway's own endpoints included", () => {
    expect(allEndpoints.length).toBeGreaterThan(20);
    expect(allEndpoints.filter((e) => e.service === 'gateway').map((e) => e.id)).toEqual(
      expect.arrayContaining(['session.create', 'users.list', 'permissions.create', 'socket.open']),
    );
  });

  it.each(allEndpoints.map((d) => [`${d.method.toUpperCase()} ${d.path} (${d.service})`, d] as const))('%s', async (_name, def) => {
    const proxied = def.service !== 'gateway';
    const anonymous = await call(def);
    if (def.access === 'public') expect([401, 403], `anonymous ${anonymous.body}`).not.toContain(anonymous.statusCode);
    else {
      expect(anonymous.statusCode, anonymous.body).toBe(401);
      expect(anonymous.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    }
    for (const role of allRoles) {
      const { token, userId } = tokens.get(role)!;
      const before = stub.received.length;
      const res = await call(def, `Bearer ${token}`);
      if (isAllowed(def, role)) {
        expect([401, 403], `${role}: ${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
        if (proxied) {
          expect(res.statusCode, `${role}: ${res.body}`).toBe(200);
          const got = stub.received.at(-1)!;
          expect(stub.received.length).toBe(before + 1);
          expect(got.url).toBe(concrete(def));
          expect(got.identity).toMatchObject({ userId, roles: [role] });
          expect(got.authorization).toBeUndefined();
        }
      } else {
        expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
        expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
        expect(stub.received.length, `${role} reached the service`).toBe(before);
      }
    }
  });
});
