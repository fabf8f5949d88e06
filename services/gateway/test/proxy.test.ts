import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointsOf, fastifyPath, type EndpointDef, type ServiceName } from '@corridor/contracts';
import { startGateway, tokenFor, type Harness } from './harness';
import { startStubUpstream } from './stub-upstream';

/**
 * Forwarding: a stopped service answers 503 quickly, a slow one 504, a broken one 502, all in the
 * error shape; bodies over the limit 413; credentials and forged identity headers never forwarded.
 */
let h: Harness;
let live: Awaited<ReturnType<typeof startStubUpstream>>;
let slow: Awaited<ReturnType<typeof startStubUpstream>>;
let stoppedUrl: string;
let garbage: ReturnType<typeof createTcpServer>;
let auth: { authorization: string };
const garbageSockets = new Set<Socket>();

/** A parameterless endpoint of the service with this method, from the contract (so the test follows it). */
function endpointOf(service: ServiceName, method: EndpointDef['method']): { method: 'GET' | 'POST'; url: string } {
  const def = endpointsOf(service).find((e) => e.method === method && !e.path.includes('{'));
  if (!def) throw new Error(`no ${method} endpoint of ${service} without parameters`);
  return { method: method.toUpperCase() as 'GET' | 'POST', url: fastifyPath(def) };
}

beforeAll(async () => {
  live = await startStubUpstream();
  slow = await startStubUpstream({ hangs: true });
  // a service that was listening and stopped: its port refuses connections now
  const stopped = await startStubUpstream();
  stoppedUrl = stopped.url;
  await stopped.close();
  garbage = createTcpServer((s) => {
    garbageSockets.add(s);
    s.on('close', () => garbageSockets.delete(s));
    s.end('NOT HTTP AT ALL\r\n\r\n');
  });
  await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
  h = await startGateway({
    env: {
      OPS_API_URL: live.url,
      JOURNEY_URL: stoppedUrl,
      GEOFENCE_URL: slow.url,
      INGEST_URL: `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`,
      UPSTREAM_TIMEOUT_MS: '500',
      PROXY_BODY_LIMIT_BYTES: '2048',
    },
  });
  auth = { authorization: `Bearer ${await tokenFor(h, 1)}` };
});
afterAll(async () => {
  await h?.close();
  for (const s of garbageSockets) s.destroy();
  await Promise.all([live?.close(), slow?.close(), new Promise((r) => garbage?.close(r))]);
});

describe('proxy', () => {
  it('answers 503 in the error shape when the service is stopped, not a timeout (GET retried once, POST not)', async () => {
    for (const { method, url } of [endpointOf('journey', 'get'), endpointOf('journey', 'post')]) {
      const res = await h.gateway.app.inject({ method, url, headers: auth, ...(method === 'POST' ? { payload: {} } : {}) });
      // a refused connection is 503 at once; waiting for the upstream timeout would have answered 504
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(503);
      expect(res.json()).toEqual({ error: { code: 'UNAVAILABLE', message: 'journey is unavailable' } });
    }
  });

  it('answers 504 when the service does not answer in time', async () => {
    const res = await h.gateway.app.inject({ ...endpointOf('geofence', 'get'), headers: auth });
    expect(res.statusCode).toBe(504);
    expect(res.json()).toMatchObject({ error: { code: 'GATEWAY_TIMEOUT' } });
  });

  it('answers 502 when the service answers something that is not HTTP', async () => {
    const res = await h.gateway.app.inject({ method: 'POST', url: '/api/positions', headers: auth, payload: { positions: [] } });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json()).toMatchObject({ error: { code: 'BAD_GATEWAY' } });
  });

  it("forwards the body, the query and the caller's identity, and nothing of the credentials", async () => {
    const res = await h.gateway.app.inject({
      method: 'POST',
      url: '/api/devices?x=1',
      headers: { ...auth, cookie: 'corridor_session=abc', 'x-corridor-identity': 'forged' },
      payload: { name: 'Truck', uniqueId: '123' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const got = live.received.at(-1)!;
    expect(got).toMatchObject({ method: 'POST', url: '/api/devices?x=1', authorization: undefined, cookie: undefined });
    expect(got.identity).toMatchObject({ userId: 1, roles: ['admin'] });
    // signed for the one service that owns the endpoint: another service refuses it
    expect(got.audience).toBe('ops-api');
    expect(JSON.parse(got.body)).toEqual({ name: 'Truck', uniqueId: '123' });
  });

  it('refuses bodies over the limit with 413, declared or streamed', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(5000), uniqueId: '1' });
    const declared = await h.gateway.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: big,
    });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    const before = live.received.length;
    const { Readable } = await import('node:stream');
    const chunked = await h.gateway.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: { ...auth, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      payload: Readable.from([Buffer.from(big.slice(0, 1500)), Buffer.from(big.slice(1500))]),
    });
    expect(chunked.statusCode).toBe(413);
    expect(live.received.length - before).toBeLessThanOrEqual(1);
    const gatewayOwn = await h.gateway.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: 'x'.repeat(2_000_000), password: 'p' },
    });
    expect(gatewayOwn.statusCode).toBe(413);
  });
});
