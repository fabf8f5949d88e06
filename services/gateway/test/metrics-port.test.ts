import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from './harness';

/** Issue 11: /metrics was public on the gateway port; it now has a listener of its own (METRICS_PORT). */
let h: Harness;
beforeAll(async () => {
  h = await startGateway();
  await h.gateway.app.listen({ host: '127.0.0.1', port: 0 });
  await h.gateway.metricsApp.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => h?.close());

const portOf = (server: { address(): unknown }): number => (server.address() as { port: number }).port;

describe('gateway metrics', () => {
  it('are not served on the API port, and are served on the metrics port', async () => {
    const api = await request(`http://127.0.0.1:${portOf(h.gateway.app.server)}/metrics`);
    const apiBody = await api.body.text();
    // (the console's page answers unknown paths there)
    expect(apiBody).not.toContain('# TYPE');
    expect(apiBody).not.toContain('http_request_duration_seconds');
    const metrics = await request(`http://127.0.0.1:${portOf(h.gateway.metricsApp.server)}/metrics`);
    expect(metrics.statusCode).toBe(200);
    expect(String(metrics.headers['content-type'])).toMatch(/^text\/plain/);
    expect(await metrics.body.text()).toContain('# TYPE http_request_duration_seconds histogram');
    // the health probes stay on the API port (an orchestrator's probes reach it)
    expect((await request(`http://127.0.0.1:${portOf(h.gateway.app.server)}/healthz`)).statusCode).toBe(200);
  });

  it('has a port of its own in the configuration', () => {
    expect(h.config.METRICS_PORT).not.toBe(h.config.PORT);
  });
});
