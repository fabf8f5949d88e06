import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allEndpoints, endpointsOf, fastifyPath, type EndpointDef, type ServiceName } from '@corridor/contracts';
import { build as buildGeofence } from '@corridor/geofence';
import { build as buildIngest } from '@corridor/ingest';
import { build as buildJourney } from '@corridor/journey';
import { build as buildOpsApi } from '@corridor/ops-api';
import { parseConfig, type App } from '@corridor/platform';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build as buildGateway, GatewayConfig } from '@corridor/gateway';

/**
 * The contract and the code agree: every service, built on the embedded adapters, serves under
 * /api exactly the endpoints the contract gives it: a route the contract lacks fails, and so does
 * a contract entry without a route. The gateway serves every endpoint of the contract: its own,
 * and every other one forwarded to its service.
 */
let adapters: TestAdapters;
beforeAll(async () => {
  adapters = await createTestAdapters('embedded');
}, 120000);
afterAll(async () => {
  await adapters?.close();
});

const key = (method: string, url: string): string => `${method.toLowerCase()} ${url}`;
const contractOf = (defs: readonly EndpointDef[]): string[] => defs.map((d) => key(d.method, fastifyPath(d))).sort();

function servedUnderApi(app: App): string[] {
  return app.routeTable
    .filter((r) => r.url === '/api' || r.url.startsWith('/api/'))
    .map((r) => key(r.method, r.url))
    .sort();
}

function expectSame(service: string, served: string[], contract: string[]): void {
  const missing = contract.filter((c) => !served.includes(c));
  const extra = served.filter((s) => !contract.includes(s));
  expect({ service, 'in the contract but not served': missing, 'served but not in the contract': extra }).toEqual({
    service,
    'in the contract but not served': [],
    'served but not in the contract': [],
  });
  expect(new Set(served).size, `${service} serves a route twice`).toBe(served.length);
}

const common = () => ({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
const builders: [Exclude<ServiceName, 'gateway'>, () => Promise<{ app: App; close(): Promise<void> }>][] = [
  ['ingest', () => buildIngest(common())],
  ['journey', () => buildJourney(common(), { sweepIntervalMs: 0 })],
  ['geofence', () => buildGeofence(common())],
  ['ops-api', () => buildOpsApi(common())],
];

describe('every route is in the contract and every contract entry has a route', () => {
  it('has no two contract entries with the same method and path, or the same id', () => {
    const all = contractOf(allEndpoints);
    expect(all.filter((k, i) => all.indexOf(k) !== i)).toEqual([]);
    const ids = allEndpoints.map((e) => e.id);
    expect(ids.filter((k, i) => ids.indexOf(k) !== i)).toEqual([]);
  });

  it.each(builders)(
    '%s',
    async (service, make) => {
      const svc = await make();
      try {
        await svc.app.ready();
        expectSame(service, servedUnderApi(svc.app), contractOf(endpointsOf(service)));
        // /metrics listens on METRICS_PORT (service-main.ts), never on the API port (issue 23)
        expect((await svc.app.inject({ method: 'GET', url: '/metrics' })).statusCode, `${service} /metrics on its API port`).toBe(404);
      } finally {
        await svc.close();
      }
    },
    120000,
  );

  it('gateway (its own endpoints and every other one forwarded)', async () => {
    const config = parseConfig(GatewayConfig, { INTERNAL_TOKEN_SECRET: TEST_IDENTITY_SECRET, LOG_LEVEL: 'warn', PASSWORD_HASH_COST: '10' });
    const gateway = await buildGateway({ ...adapters, logger: adapters.logger, config });
    try {
      await gateway.app.ready();
      expectSame('gateway', servedUnderApi(gateway.app), contractOf(allEndpoints));
      // (the console's page answers unknown paths there: no metric in it)
      expect((await gateway.app.inject({ method: 'GET', url: '/metrics' })).body, 'gateway /metrics on its API port').not.toContain(
        '# TYPE',
      );
      // and the document it serves is generated from that same contract
      const doc = (await gateway.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
        paths: Record<string, Record<string, { operationId: string }>>;
      }>();
      const operations = Object.values(doc.paths)
        .flatMap((p) => Object.values(p).map((o) => o.operationId))
        .sort();
      expect(operations).toEqual(allEndpoints.map((e) => e.id).sort());
    } finally {
      await gateway.close();
    }
  }, 120000);
});
