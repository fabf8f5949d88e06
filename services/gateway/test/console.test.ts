import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Harness } from './harness';

/**
 * The gateway serves the web console at / beside /api: hashed assets with a year's cache (and their
 * pre-compressed copies), index.html uncached for every console path, /api left to the API.
 */
describe('the console at /', () => {
  let h: Harness;
  let dir: string;
  const script = 'console.log("corridor console");'.repeat(100);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-dist-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Corridor</title><div id="root"></div>');
    writeFileSync(join(dir, 'assets', 'index-AbC123.js'), script);
    writeFileSync(join(dir, 'assets', 'index-AbC123.js.gz'), gzipSync(script));
    h = await startGateway({ env: { CONSOLE_DIR: dir } });
  }, 120000);
  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers / and every console path with index.html, never cached', async () => {
    for (const url of ['/', '/journeys/42', '/shipments?status=draft', '/sign-in']) {
      const res = await h.gateway.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('serves hashed assets for a year, pre-compressed where the browser takes gzip', async () => {
    const plain = await h.gateway.app.inject({ method: 'GET', url: '/assets/index-AbC123.js' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-type']).toMatch(/javascript/);
    expect(plain.body).toBe(script);
    const gz = await h.gateway.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.rawPayload.length).toBeLessThan(script.length);
  });

  it('leaves /api to the API: an unknown API path or asset is a 404 in the error shape, not the console', async () => {
    for (const url of ['/api/no-such-thing', '/assets/missing-123.js']) {
      const res = await h.gateway.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    }
    const server = await h.gateway.app.inject({ method: 'GET', url: '/api/server' });
    expect(server.statusCode).toBe(200);
    expect(server.json()).toHaveProperty('version');
  });

  it("lets the console's map start its workers from blob: URLs and load a configured tile server", async () => {
    const res = await h.gateway.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});

describe('without a console build', () => {
  it('says at / how to build it', async () => {
    const h = await startGateway({ env: { CONSOLE_DIR: join(tmpdir(), 'no-console-here') } });
    try {
      const res = await h.gateway.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('pnpm --filter @corridor/console build');
    } finally {
      await h.close();
    }
  });
});
