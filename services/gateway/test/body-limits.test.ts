import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, createLogger, type App } from '@corridor/platform';
import { startGateway, tokenFor, type Harness } from './harness';

/**
 * Issue 11: a 2 MiB JSON body answered 502 (the service refused it past its 1 MiB limit and cut
 * the stream the gateway was still sending). The gateway now holds JSON and form bodies to the
 * services' limit and answers 413 itself; uploads (multipart) keep their larger limit.
 */
let h: Harness;
let upstream: App;
let received: number[];
let auth: { authorization: string };
let base: string;

beforeAll(async () => {
  received = [];
  // a service as every service is built: createApp with its default body limit (1 MiB)
  upstream = createApp({ name: 'ops-api', logger: createLogger('upstream', 'silent') });
  upstream.addContentTypeParser(/^multipart\//, (_req, payload, done) => {
    let n = 0;
    payload.on('data', (c: Buffer) => (n += c.length));
    payload.on('end', () => done(null, n));
  });
  upstream.post('/api/devices', async (req) => {
    received.push(JSON.stringify(req.body).length);
    return { ok: true };
  });
  upstream.post('/api/documents/upload', async (req) => {
    received.push(req.body as number);
    return { ok: true };
  });
  await upstream.listen({ host: '127.0.0.1', port: 0 });
  h = await startGateway({ env: { OPS_API_URL: `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}` } });
  auth = { authorization: `Bearer ${await tokenFor(h, 1)}` };
  // over real sockets: the 502 came from the service closing a connection the gateway was still writing to
  await h.gateway.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.gateway.app.server.address() as { port: number }).port}`;
});

async function post(
  path: string,
  headers: Record<string, string>,
  body: string | Buffer | Readable,
): Promise<{ statusCode: number; body: string; json<T = unknown>(): T }> {
  const res = await request(base + path, { method: 'POST', headers: { ...auth, ...headers }, body });
  const text = await res.body.text();
  return { statusCode: res.statusCode, body: text, json: <T>() => JSON.parse(text) as T };
}
afterAll(async () => {
  await h?.close();
  await upstream?.close();
});

describe('body limits at the gateway', () => {
  it('answers 413 in the error shape to a 2 MiB JSON body, declared or chunked, and the service never sees it', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), uniqueId: '1' });
    const declared = await post('/api/devices', { 'content-type': 'application/json' }, big);
    expect(declared.statusCode, declared.body).toBe(413);
    expect(declared.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', details: { limit: h.config.BODY_LIMIT_BYTES } } });
    const chunked = await post(
      '/api/devices',
      { 'content-type': 'application/json' },
      Readable.from(
        (function* () {
          for (let i = 0; i < big.length; i += 256 * 1024) yield Buffer.from(big.slice(i, i + 256 * 1024));
        })(),
      ),
    );
    expect(chunked.statusCode, chunked.body).toBe(413);
    expect(chunked.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(received).toEqual([]);
  });

  it('passes a JSON body under the limit and a 2 MiB upload through', async () => {
    const small = await post('/api/devices', { 'content-type': 'application/json' }, JSON.stringify({ name: 'Truck', uniqueId: '1' }));
    expect(small.statusCode, small.body).toBe(200);
    const bytes = 2 * 1024 * 1024;
    const upload = await post('/api/documents/upload', { 'content-type': 'multipart/form-data; boundary=x' }, Buffer.alloc(bytes, 0x61));
    expect(upload.statusCode, upload.body).toBe(200);
    expect(received.at(-1)).toBe(bytes);
  });
});
