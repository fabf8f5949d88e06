import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { audit } from '../src/audit/audit';
import { basic, createUser, login, startGateway, tokenFor, type Harness } from './harness';

/** /api/password: reset request → single-use token through the notifier → new password. */
let h: Harness;
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);

beforeAll(async () => {
  h = await startGateway({ env: { PASSWORD_RESET_URL: 'https://console.corridor.test/reset-password', LOGIN_MAX_FAILURES: '2' } });
});
// tests move the clock past sign-in waits; each starts from the real time
afterEach(() => {
  h.clock.offsetMs = 0;
});
afterAll(async () => {
  await h?.close();
});

describe('password reset', () => {
  it('sends a single-use token, sets the new password, ends sessions and tokens, clears the lockout', async () => {
    const u = await createUser(h, ['company_user'], 101);
    const cookie = await login(h, u.email, u.plainPassword);
    const token = await tokenFor(h, u.id);
    for (const p of ['wrong-1', 'wrong-2']) {
      expect((await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: p } })).statusCode).toBe(401);
      h.clock.offsetMs += 3600_000; // past the wait after a failure
    }
    expect((await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: u.plainPassword } })).statusCode).toBe(
      429,
    );

    const req = await inject({
      method: 'POST',
      url: '/api/password/reset',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(u.email)}`,
    });
    expect(req.statusCode).toBe(200);
    const notice = h.notices.at(-1)!;
    expect(notice).toMatchObject({ email: u.email, name: u.name });
    expect(notice.url).toBe(`https://console.corridor.test/reset-password?passwordReset=${notice.token}`);

    const done = await inject({
      method: 'POST',
      url: '/api/password/update',
      payload: { token: notice.token, password: 'brand-new-password' },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    expect((await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: u.plainPassword } })).statusCode).toBe(
      401,
    );
    h.clock.offsetMs += 3600_000; // past the wait after that failure
    expect(
      (await inject({ method: 'GET', url: '/api/session', headers: { authorization: basic(u.email, 'brand-new-password') } })).statusCode,
    ).toBe(200);

    const replay = await inject({
      method: 'POST',
      url: '/api/password/update',
      payload: { token: notice.token, password: 'another-password' },
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [{ in: 'body', path: 'token' }] } });
    expect((await audit.forEntity(h.adapters.db.orm, 'user', u.id)).map((r) => r.action)).toEqual(
      expect.arrayContaining(['password.reset-request', 'password.reset']),
    );
  });

  it('answers 200 for an unknown address and sends nothing; throttles notices per user', async () => {
    const before = h.notices.length;
    expect((await inject({ method: 'POST', url: '/api/password/reset', payload: { email: 'nobody@corridor.test' } })).statusCode).toBe(200);
    expect(h.notices.length).toBe(before);
    const u = await createUser(h, ['dispatcher'], 101);
    for (let i = 0; i < 5; i++)
      expect((await inject({ method: 'POST', url: '/api/password/reset', payload: { email: u.email } })).statusCode).toBe(200);
    expect(h.notices.length - before).toBe(3);
  });

  it('refuses a made-up token and a short password (400 naming the field)', async () => {
    expect(
      (await inject({ method: 'POST', url: '/api/password/update', payload: { token: 'x'.repeat(43), password: 'long-enough-1' } }))
        .statusCode,
    ).toBe(400);
    const short = await inject({ method: 'POST', url: '/api/password/update', payload: { token: 'x'.repeat(43), password: 'short' } });
    expect(short.json()).toMatchObject({ error: { details: [{ path: 'password' }] } });
    const missing = await inject({ method: 'POST', url: '/api/password/reset', payload: {} });
    expect(missing.json()).toMatchObject({ error: { details: [{ path: 'email' }] } });
  });
});
