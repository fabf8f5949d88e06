import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOutboundAllowList } from './outbound-address';
import { webhookChannel } from './webhook-channel';

/** Against a local listener answering a scripted sequence of statuses (an internal receiver: allowed by the policy). */
let server: Server;
let url = '';
let script: number[] = [];
const bodies: unknown[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      res.writeHead(script.shift() ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterAll(async () => new Promise<void>((r) => server.close(() => r())));

const send = webhookChannel({ attempts: 3, timeoutMs: 1000, backoffMs: 10, policy: parseOutboundAllowList('127.0.0.1') });

describe('webhook channel', () => {
  it('posts the JSON payload', async () => {
    script = [204];
    bodies.length = 0;
    expect(await send(url, { event: { id: 'e1' } })).toEqual({ ok: true, attempts: 1, error: null });
    expect(bodies).toEqual([{ event: { id: 'e1' } }]);
  });

  it('retries 5xx and 429, then succeeds', async () => {
    script = [500, 429, 200];
    expect(await send(url, {})).toEqual({ ok: true, attempts: 3, error: null });
  });

  it('gives up after the attempts, and at once on a 4xx refusal', async () => {
    script = [503, 503, 503];
    expect(await send(url, {})).toEqual({ ok: false, attempts: 3, error: 'HTTP 503' });
    script = [400];
    expect(await send(url, {})).toEqual({ ok: false, attempts: 1, error: 'HTTP 400' });
  });

  it('does not follow a redirect (it could point anywhere): not delivered, at once', async () => {
    script = [302];
    bodies.length = 0;
    expect(await send(url, {})).toEqual({ ok: false, attempts: 1, error: 'HTTP 302' });
    expect(bodies).toHaveLength(1);
  });

  it('refuses a loopback, private or metadata receiver unless allowed, without a request and without retries', async () => {
    const publicOnly = webhookChannel({ attempts: 3, timeoutMs: 1000, backoffMs: 10 });
    bodies.length = 0;
    script = [200];
    for (const target of [
      url,
      url.replace('127.0.0.1', 'localhost'),
      'http://169.254.169.254/latest/meta-data/',
      'http://[::ffff:127.0.0.1]:1/',
      'http://10.0.0.1/',
      'http://2130706433/',
    ]) {
      const res = await publicOnly(target, {});
      expect(res, target).toMatchObject({ ok: false, attempts: 1 });
      expect(res.error, target).toMatch(/refused to connect/);
    }
    expect(bodies).toEqual([]);
  });

  it('fails when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const res = await send(`http://127.0.0.1:${port}/`, {});
    expect(res.ok).toBe(false);
    expect(res.attempts).toBe(3);
    expect(res.error).toMatch(/ECONNREFUSED|connect/i);
  });
});
