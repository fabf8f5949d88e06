import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@corridor/contracts';
import { ADMIN, createUser, login, sessionCookie, startGateway, type Harness } from './harness';

/**
 * Issue 13's CSRF rule and issue 11's sign-in origin: a state-changing request with the session
 * cookie passes when it comes from the gateway's own origin (Origin, or Sec-Fetch-Site: same-origin)
 * or the configured console's, and is refused cross-site; clients that send neither header (Traccar
 * apps, curl) need no custom header, so DELETE /api/session signs them out. Sign-in refuses a
 * foreign Origin. (app.inject's Host is localhost:80, so the gateway's own origin is http://localhost.)
 */
let h: Harness;
const CONSOLE = 'https://console.corridor.test';
const OWN = 'http://localhost';
const EVIL = 'https://evil.example';
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);
const device = { name: 'x', uniqueId: 'x1' };

beforeAll(async () => {
  h = await startGateway({ env: { CONSOLE_ORIGIN: CONSOLE } });
});
afterAll(async () => {
  await h?.close();
});

describe('cross-site requests with the session cookie', () => {
  it("refuses a POST with the cookie and a foreign Origin, X-Requested-With or not, on the gateway's and the services' endpoints", async () => {
    const cookie = await login(h, ADMIN.email, ADMIN.password);
    for (const headers of [
      { origin: EVIL },
      { origin: EVIL, 'x-requested-with': 'XMLHttpRequest' },
      { origin: EVIL, 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ]) {
      const proxied = await inject({ method: 'POST', url: '/api/devices', headers: { cookie, ...headers }, payload: device });
      expect(proxied.statusCode, JSON.stringify(headers)).toBe(403);
      expect(proxied.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: expect.stringMatching(/Cross-site/) } });
      const own = await inject({
        method: 'POST',
        url: '/api/users',
        headers: { cookie, ...headers },
        payload: { name: 'x', email: 'x@evil.example', password: 'password-1' },
      });
      expect(own.statusCode, JSON.stringify(headers)).toBe(403);
    }
    // a cross-site sign-out attempt leaves the session alone
    expect((await inject({ method: 'DELETE', url: '/api/session', headers: { cookie, origin: EVIL } })).statusCode).toBe(403);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(200);
  });

  it("accepts the same origin (Origin or Sec-Fetch-Site), the console's origin, X-Requested-With, and a proxy that rewrote Host", async () => {
    const cookie = await login(h, ADMIN.email, ADMIN.password);
    const accepted = [
      { origin: OWN },
      { origin: OWN, 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'same-origin' },
      { origin: CONSOLE, 'sec-fetch-site': 'same-site' },
      { 'x-requested-with': 'XMLHttpRequest' },
      // behind a proxy that rewrites Host but keeps Origin: the browser's Sec-Fetch-Site still says same-origin
      { host: 'gateway.internal:8082', origin: 'https://corridor.example', 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of accepted) {
      // the CSRF check passed when the request reaches the (stopped) upstream: 503
      const res = await inject({ method: 'POST', url: '/api/devices', headers: { cookie, ...headers }, payload: device });
      expect(res.statusCode, `${JSON.stringify(headers)} ${res.body}`).toBe(503);
    }
  });

  it('signs a Traccar-style client out with a bare DELETE /api/session, and the session is gone after', async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const res = await inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(u.email)}&password=${encodeURIComponent(u.plainPassword)}`,
    });
    expect(res.statusCode).toBe(200);
    const cookie = sessionCookie(res);
    expect((await inject({ method: 'GET', url: '/api/devices', headers: { cookie } })).statusCode).toBe(503);
    const out = await inject({ method: 'DELETE', url: '/api/session', headers: { cookie } });
    expect(out.statusCode, out.body).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/corridor_session=;/);
    // gone on the server, not only in the client
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/devices', headers: { cookie } })).statusCode).toBe(401);
  });
});

describe('sign-in origin', () => {
  it("refuses a sign-in from a foreign Origin (even with the right password) and accepts the gateway's and the console's", async () => {
    const refused = await inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: EVIL },
      payload: { email: ADMIN.email, password: ADMIN.password },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['set-cookie']).toBeUndefined();
    // the answer names what to set: the origin list, and the proxy setting when proxies are not trusted
    const { error } = refused.json<{ error: { message: string; details: Record<string, unknown> } }>();
    expect(error.message).toContain(`origin ${EVIL} not allowed`);
    expect(error.message).toContain('reached as localhost:80');
    expect(error.message).toMatch(/add it to CONSOLE_ORIGIN/);
    expect(error.message).toMatch(/set TRUST_PROXY_HOPS/);
    expect(error.details).toEqual({ origin: EVIL, setting: 'CONSOLE_ORIGIN', trustProxyHops: false });
    const form = await inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(ADMIN.email)}&password=${encodeURIComponent(ADMIN.password)}`,
    });
    expect(form.statusCode).toBe(403);
    for (const origin of [OWN, CONSOLE]) {
      const ok = await inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin },
        payload: { email: ADMIN.email, password: ADMIN.password },
      });
      expect(ok.statusCode, origin).toBe(200);
      expect(ok.json<User>().email).toBe(ADMIN.email);
    }
  });
});

describe('behind a reverse proxy that rewrites Host (TRUST_PROXY_HOPS=1)', () => {
  let proxied: Harness;
  beforeAll(async () => {
    proxied = await startGateway({ env: { TRUST_PROXY_HOPS: '1' } });
  });
  afterAll(async () => {
    await proxied?.close();
  });

  it('signs traccar-web in through the proxy (its form, no fetch metadata) by X-Forwarded-Host or Forwarded, and refuses another origin naming the setting', async () => {
    const form = `email=${encodeURIComponent(ADMIN.email)}&password=${encodeURIComponent(ADMIN.password)}`;
    const base = { host: 'gateway.internal:8082', origin: 'https://corridor.example', 'content-type': 'application/x-www-form-urlencoded' };
    for (const forwarded of [
      { 'x-forwarded-host': 'corridor.example' },
      { forwarded: 'for=203.0.113.7;host=corridor.example;proto=https' },
    ]) {
      const res = await proxied.gateway.app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { ...base, ...forwarded },
        payload: form,
      });
      expect(res.statusCode, `${JSON.stringify(forwarded)} ${res.body}`).toBe(200);
      expect(sessionCookie(res)).toBeTruthy();
    }
    const other = await proxied.gateway.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { ...base, 'x-forwarded-host': 'other.example' },
      payload: form,
    });
    expect(other.statusCode).toBe(403);
    const { message } = other.json<{ error: { message: string } }>().error;
    expect(message).toContain('reached as gateway.internal:8082, other.example');
    expect(message).toMatch(/add it to CONSOLE_ORIGIN/);
    expect(message).not.toMatch(/TRUST_PROXY_HOPS/);
  });
});
