import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@corridor/contracts';
import { audit } from '../src/audit/audit';
import { ADMIN, basic, createUser, login, sessionCookie, startGateway, tokenFor, type Harness } from './harness';

/**
 * Sign-in end to end: cookie sessions (JSON and form), tampered cookies, lockout, bearer
 * tokens (expiry, scope, revocation, ?token=), basic auth, disabled accounts.
 */
let h: Harness;
const CONSOLE = 'https://console.corridor.test';
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);

beforeAll(async () => {
  h = await startGateway({ env: { LOGIN_MAX_FAILURES: '3', LOGIN_LOCKOUT_SECONDS: '60', CONSOLE_ORIGIN: CONSOLE } });
});
// tests move the clock past sign-in waits; each starts from the real time
afterEach(() => {
  h.clock.offsetMs = 0;
});
afterAll(async () => {
  await h?.close();
});

describe('cookie sessions', () => {
  it('signs in with JSON, sets an HttpOnly Secure SameSite=Lax signed cookie, and GET /session returns the user', async () => {
    const res = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: ADMIN.email.toUpperCase(), password: ADMIN.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<User>()).toMatchObject({ email: ADMIN.email, administrator: true, roles: ['admin'] });
    expect(res.json<User>()).not.toHaveProperty('password');
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(/^corridor_session=[\w-]{43}\.[\w/+=-]+;/);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/Secure/);
    expect(set).toMatch(/SameSite=Lax/);
    const me = await inject({ method: 'GET', url: '/api/session', headers: { cookie: sessionCookie(res) } });
    expect(me.statusCode).toBe(200);
    expect(me.json<User>().email).toBe(ADMIN.email);
  });

  it('signs in with a form, as Traccar clients post it', async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const res = await inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(u.email)}&password=${encodeURIComponent(u.plainPassword)}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<User>()).toMatchObject({ id: u.id, roles: ['dispatcher'], companyId: 101 });
  });

  it('answers 401 to a wrong password or an unknown address, and 400 naming a missing field', async () => {
    const u = await createUser(h, ['company_user'], 101);
    const wrong = await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: 'not-the-password' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(wrong.headers['set-cookie']).toBeUndefined();
    const unknown = await inject({
      method: 'POST',
      url: '/api/session',
      payload: { email: 'nobody@corridor.test', password: 'whatever-1' },
    });
    expect(unknown.statusCode).toBe(401);
    const missing = await inject({ method: 'POST', url: '/api/session', payload: { email: u.email } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json<{ error: { message: string } }>().error.message).toMatch(/password/);
  });

  it('answers 404 to GET /session without a session, and ignores a tampered cookie', async () => {
    expect((await inject({ method: 'GET', url: '/api/session' })).statusCode).toBe(404);
    const cookie = await login(h, ADMIN.email, ADMIN.password);
    const [name, value] = cookie.split('=') as [string, string];
    const [sid, sig] = value.split('.') as [string, string];
    const flipped = sid.slice(0, -1) + (sid.endsWith('A') ? 'B' : 'A');
    for (const tampered of [`${name}=${flipped}.${sig}`, `${name}=${sid}`, `${name}=${sid}.${sig.slice(0, -2)}xx`]) {
      const res = await inject({ method: 'GET', url: '/api/session', headers: { cookie: tampered } });
      expect(res.statusCode, tampered).toBe(404);
      expect(String(res.headers['set-cookie'])).toMatch(/corridor_session=;/); // cleared
      const users = await inject({ method: 'GET', url: '/api/users', headers: { cookie: tampered } });
      expect(users.statusCode).toBe(401);
    }
    expect((await inject({ method: 'GET', url: '/api/users', headers: { cookie } })).statusCode).toBe(200);
  });

  it('locks an address after repeated failures (429 even with the right password) without touching others', async () => {
    const u = await createUser(h, ['company_user'], 202);
    for (let i = 0; i < 3; i++) {
      expect((await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: `wrong-${i}` } })).statusCode).toBe(
        401,
      );
      h.clock.offsetMs += 3600_000; // past the wait after each failure (the waits are the next test's)
    }
    const locked = await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: u.plainPassword } });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    expect(locked.headers['retry-after']).toBe('60');
    // basic auth is checked by the same throttle
    expect(
      (await inject({ method: 'GET', url: '/api/session', headers: { authorization: basic(u.email, u.plainPassword) } })).statusCode,
    ).toBe(429);
    expect(
      (await inject({ method: 'POST', url: '/api/session', payload: { email: ADMIN.email, password: ADMIN.password } })).statusCode,
    ).toBe(200);
  });

  it('cannot be used to lock the real user out: the lock holds for the attacking address only, known addresses pass, and it survives a restart (issue 11)', async () => {
    const u = await createUser(h, ['admin']);
    const signIn = (password: string, remoteAddress: string, gw = h) =>
      gw.gateway.app.inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password }, remoteAddress });
    // the real user signs in from their office once: that address is known to the account
    expect((await signIn(u.plainPassword, '198.51.100.7')).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await signIn(`guess-${i}`, '203.0.113.66')).statusCode).toBe(401);
      h.clock.offsetMs += 3600_000;
    }
    expect((await signIn(u.plainPassword, '203.0.113.66')).statusCode).toBe(429);
    // the same account from elsewhere: the right password still signs in
    expect((await signIn(u.plainPassword, '198.51.100.7')).statusCode).toBe(200);
    expect((await signIn(u.plainPassword, '192.0.2.10')).statusCode).toBe(200);
    // a gateway started afresh on the same cache keeps the attacker's lock (Redis when REDIS_URL is set)
    const again = await startGateway({ adapters: h.adapters, env: { LOGIN_MAX_FAILURES: '3', LOGIN_LOCKOUT_SECONDS: '60' } });
    try {
      expect((await signIn(u.plainPassword, '203.0.113.66', again)).statusCode).toBe(429);
      expect((await signIn(u.plainPassword, '198.51.100.7', again)).statusCode).toBe(200);
    } finally {
      await again.gateway.close();
    }
  });

  it('never locks an account guessed at from 20 addresses: known addresses sign in at once, a new one waits once (issue 23)', async () => {
    // the sweep: 50 failures spread over 20 addresses locked the account for every new address
    const gw = await startGateway({ adapters: h.adapters });
    try {
      const u = await createUser(gw, ['dispatcher'], 101);
      const signIn = (password: string, remoteAddress: string) =>
        gw.gateway.app.inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password }, remoteAddress });
      expect((await signIn(u.plainPassword, '198.51.100.8')).statusCode).toBe(200);
      for (let i = 0; i < 50; i++) {
        if (i % 20 === 0) gw.clock.offsetMs += 3600_000; // past each address's backoff
        expect((await signIn(`guess-${i}`, `203.0.113.${100 + (i % 20)}`)).statusCode).toBe(401);
      }
      // the office, where the user signed in before: at once
      expect((await signIn(u.plainPassword, '198.51.100.8')).statusCode).toBe(200);
      // a new network: slowed down, never locked (LOGIN_NEW_ADDRESS_DELAY_SECONDS, default 30)
      const fresh = await signIn(u.plainPassword, '192.0.2.77');
      expect(fresh.statusCode).toBe(429);
      expect(fresh.headers['retry-after']).toBe('30');
      expect(fresh.json()).toMatchObject({
        error: { code: 'RATE_LIMITED', details: { slowedDown: 'new-address', retryAfterSeconds: 30 } },
      });
      gw.clock.offsetMs += 30_000;
      expect((await signIn(u.plainPassword, '192.0.2.77')).statusCode).toBe(200);
      // a guesser's next new address pays the same wait before every guess
      expect((await signIn('guess-x', '203.0.113.200')).statusCode).toBe(429);
      gw.clock.offsetMs += 30_000;
      expect((await signIn('guess-x', '203.0.113.200')).statusCode).toBe(401);
      expect((await signIn('guess-y', '203.0.113.200')).statusCode).toBe(429);
    } finally {
      await gw.gateway.close();
    }
  });

  it('never locks accounts out of an address that failed 50 times with other accounts: the administrator waits once there (issue 23)', async () => {
    const gw = await startGateway({ adapters: h.adapters });
    try {
      const admin = await createUser(gw, ['admin']);
      const signIn = (email: string, password: string, remoteAddress = '203.0.113.41') =>
        gw.gateway.app.inject({ method: 'POST', url: '/api/session', payload: { email, password }, remoteAddress });
      for (let i = 0; i < 50; i++) expect((await signIn(`stuffed-${i}-${admin.id}@corridor.test`, 'a-guess')).statusCode).toBe(401);
      const slowed = await signIn(admin.email, admin.plainPassword);
      expect(slowed.statusCode).toBe(429);
      expect(slowed.json()).toMatchObject({ error: { details: { slowedDown: 'new-address', retryAfterSeconds: 30 } } });
      expect((await signIn(admin.email, admin.plainPassword, '192.0.2.78')).statusCode).toBe(200); // elsewhere: nothing
      gw.clock.offsetMs += 30_000;
      expect((await signIn(admin.email, admin.plainPassword)).statusCode).toBe(200);
    } finally {
      await gw.gateway.close();
    }
  });

  it('counts an IPv6 /64 as one address: its addresses share a pair lock', async () => {
    const u = await createUser(h, ['company_user'], 202);
    const signIn = (password: string, remoteAddress: string) =>
      inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password }, remoteAddress });
    for (let i = 1; i <= 3; i++) {
      expect((await signIn(`guess-${i}`, `2001:db8:aa:bb::${i}`)).statusCode).toBe(401);
      h.clock.offsetMs += 3600_000;
    }
    const locked = await signIn(u.plainPassword, '2001:db8:aa:bb:ffff::9');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: { details: { lockedBy: 'account' } } });
    expect((await signIn(u.plainPassword, '2001:db8:aa:cc::1')).statusCode).toBe(200);
  });

  it('makes an address wait longer after each further failure of an account before it locks it, without checking the password meanwhile (issue 11)', async () => {
    // waits of 600 s and 1200 s: no pause of a busy machine ends one; the test moves the clock past them
    const gw = await startGateway({
      adapters: h.adapters,
      env: { LOGIN_MAX_FAILURES: '4', LOGIN_LOCKOUT_SECONDS: '7200', LOGIN_DELAY_SECONDS: '600' },
    });
    try {
      const u = await createUser(gw, ['dispatcher'], 101);
      const signIn = (password: string, remoteAddress = '203.0.113.20') =>
        gw.gateway.app.inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password }, remoteAddress });
      const waitOf = (res: { statusCode: number; headers: Record<string, unknown>; body: string }): number => {
        expect(res.statusCode, res.body).toBe(429);
        expect(JSON.parse(res.body)).toMatchObject({ error: { code: 'RATE_LIMITED', details: { delayed: true } } });
        return Number(res.headers['retry-after']);
      };
      // a first failure costs nothing (a typo)
      expect((await signIn('guess-1')).statusCode).toBe(401);
      expect((await signIn('guess-2')).statusCode).toBe(401);
      // waiting: even the right password is refused, and a guess meanwhile is not checked (so not counted)
      const first = waitOf(await signIn(u.plainPassword));
      waitOf(await signIn('guess-while-waiting'));
      expect((await signIn(u.plainPassword, '198.51.100.21')).statusCode).toBe(200); // another address does not wait
      gw.clock.offsetMs += first * 1000;
      expect((await signIn('guess-3')).statusCode).toBe(401);
      const second = waitOf(await signIn(u.plainPassword));
      expect(second).toBeGreaterThan(first + 500);
      // half of the longer wait is not enough
      gw.clock.offsetMs += (second / 2) * 1000;
      waitOf(await signIn(u.plainPassword));
      gw.clock.offsetMs += (second / 2) * 1000;
      // the fourth failure locks the pair: no wait any more, a lock until the lockout ends
      expect((await signIn('guess-4')).statusCode).toBe(401);
      const locked = await signIn(u.plainPassword);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ error: { details: { lockedBy: 'account' } } });
      // what is left of the lock, which started with that failure (a busy machine may have spent a few seconds since)
      const left = Number(locked.headers['retry-after']);
      expect(left).toBeGreaterThan(7100);
      expect(left).toBeLessThanOrEqual(7200);

      // a right password after a wait clears the pair's failures: the next two failures wait the first wait again
      const v = await createUser(gw, ['dispatcher'], 101);
      const signInV = (password: string) =>
        gw.gateway.app.inject({
          method: 'POST',
          url: '/api/session',
          payload: { email: v.email, password },
          remoteAddress: '203.0.113.20',
        });
      for (const p of ['typo', 'typo-2', 'typo-3']) {
        expect((await signInV(p)).statusCode).toBe(401);
        gw.clock.offsetMs += 3600_000;
      }
      expect((await signInV(v.plainPassword)).statusCode).toBe(200);
      expect((await signInV('typo-again')).statusCode).toBe(401);
      expect((await signInV('typo-again-2')).statusCode).toBe(401);
      expect(waitOf(await signInV(v.plainPassword))).toBeLessThanOrEqual(600);
    } finally {
      await gw.gateway.close();
    }
  });

  it("lets an administrator lift an account's lock (audited; 404 for an unknown user, 403 for others), and counts the login name and the email as one account (issue 11)", async () => {
    const u = await createUser(h, ['company_user'], 202);
    await h.gateway.users.update(
      u.id,
      { ...u, login: `login-${u.id}`, password: null },
      { userId: 1, roles: ['admin'], companyId: null, email: ADMIN.email, name: 'admin' },
      { userId: null, email: 'test' },
    );
    const signIn = (email: string, password: string) =>
      inject({ method: 'POST', url: '/api/session', payload: { email, password }, remoteAddress: '203.0.113.30' });
    // failures by email and by login name count together: three lock the account at this address
    for (const name of [u.email, `login-${u.id}`, u.email.toUpperCase()]) {
      expect((await signIn(name, 'a-guess')).statusCode).toBe(401);
      h.clock.offsetMs += 3600_000;
    }
    expect((await signIn(`login-${u.id}`, u.plainPassword)).statusCode).toBe(429);
    const admin = await createUser(h, ['admin']);
    const adminAuth = { authorization: `Bearer ${await tokenFor(h, admin.id)}` };
    const other = { authorization: `Bearer ${await tokenFor(h, (await createUser(h, ['dispatcher'], 202)).id)}` };
    expect((await inject({ method: 'DELETE', url: `/api/users/${u.id}/lock`, headers: other })).statusCode).toBe(403);
    expect((await inject({ method: 'DELETE', url: '/api/users/999999999/lock', headers: adminAuth })).statusCode).toBe(404);
    expect((await signIn(u.email, u.plainPassword)).statusCode).toBe(429);
    expect((await inject({ method: 'DELETE', url: `/api/users/${u.id}/lock`, headers: adminAuth })).statusCode).toBe(204);
    expect((await signIn(u.email, u.plainPassword)).statusCode).toBe(200);
    const trail = await audit.forEntity(h.adapters.db.orm, 'user', u.id);
    expect(trail.find((r) => r.action === 'user.unlock')).toMatchObject({ actorUserId: admin.id });
  });

  it('lifts, for the unlocked account, the slowdown of an address that failed with other accounts (issue 11)', async () => {
    const gw = await startGateway({ adapters: h.adapters, env: { LOGIN_MAX_FAILURES_PER_IP: '3', LOGIN_LOCKOUT_SECONDS: '600' } });
    try {
      const u = await createUser(gw, ['company_user'], 202);
      const signIn = (email: string, password: string) =>
        gw.gateway.app.inject({ method: 'POST', url: '/api/session', payload: { email, password }, remoteAddress: '203.0.113.40' });
      // three other accounts fail once each from this address: it is slowed down for accounts never signed in there
      for (let i = 0; i < 3; i++) expect((await signIn(`nobody-${i}-${u.id}@corridor.test`, 'a-guess')).statusCode).toBe(401);
      const refused = await signIn(u.email, u.plainPassword);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error: { details: { slowedDown: 'new-address' } } });
      const admin = { authorization: `Bearer ${await tokenFor(gw, (await createUser(gw, ['admin'])).id)}` };
      expect((await gw.gateway.app.inject({ method: 'DELETE', url: `/api/users/${u.id}/lock`, headers: admin })).statusCode).toBe(204);
      expect((await signIn(u.email, u.plainPassword)).statusCode).toBe(200);
      // the address stays slowed down for the other accounts
      expect((await signIn(`nobody-0-${u.id}@corridor.test`, 'a-guess')).statusCode).toBe(429);
    } finally {
      await gw.gateway.close();
    }
  });

  it('refuses a disabled user: sign-in 401 and the live session ends', async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const cookie = await login(h, u.email, u.plainPassword);
    const admin = await login(h, ADMIN.email, ADMIN.password);
    const current = (await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: { cookie: admin } })).json<User>();
    const disable = await inject({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      headers: { cookie: admin, 'x-requested-with': 'test' },
      payload: { ...current, disabled: true, password: null },
    });
    expect(disable.statusCode, disable.body).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie } })).statusCode).toBe(404);
    const again = await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: u.plainPassword } });
    expect(again.statusCode).toBe(401);
    expect(again.json<{ error: { message: string } }>().error.message).toMatch(/disabled/);
    expect(again.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED', details: { reason: 'accountInactive' } } });
  });
});

describe('bearer tokens', () => {
  it('issues a token from a session and accepts it as Bearer and as ?token= (which sets the cookie)', async () => {
    const u = await createUser(h, ['association_analyst']);
    const cookie = await login(h, u.email, u.plainPassword);
    const res = await inject({
      method: 'POST',
      url: '/api/session/token',
      headers: { cookie, 'x-requested-with': 'x', 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const token = res.body;
    expect(token).toMatch(/^crt_[\w-]{43}$/);
    const me = await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } });
    expect(me.json<User>().id).toBe(u.id);
    const viaQuery = await inject({ method: 'GET', url: `/api/session?token=${token}` });
    expect(viaQuery.statusCode).toBe(200);
    const fromQuery = sessionCookie(viaQuery);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie: fromQuery } })).json<User>().id).toBe(u.id);
  });

  it('cannot switch a signed-in browser into the account of a token a foreign page carries (login CSRF, issue 23)', async () => {
    const victim = await createUser(h, ['dispatcher'], 101);
    const attacker = await createUser(h, ['company_user'], 202);
    const attackerToken = await tokenFor(h, attacker.id, 'full');
    const victimCookie = await login(h, victim.email, victim.plainPassword);
    const whoAmI = async () => (await inject({ method: 'GET', url: '/api/session', headers: { cookie: victimCookie } })).json<User>().id;
    // the sweep's attack: a page on another site loads /api/session?token=<the attacker's token> in the victim's browser
    const fromImage = await inject({
      method: 'GET',
      url: `/api/session?token=${attackerToken}`,
      headers: { cookie: victimCookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image' },
    });
    expect(fromImage.statusCode).toBe(403);
    expect(fromImage.headers['set-cookie']).toBeUndefined();
    const fromLink = await inject({
      method: 'GET',
      url: `/api/session?token=${attackerToken}`,
      headers: { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
    });
    expect(fromLink.statusCode).toBe(403);
    // a browser without fetch metadata: a session that exists is never replaced
    const old = await inject({ method: 'GET', url: `/api/session?token=${attackerToken}`, headers: { cookie: victimCookie } });
    expect(old.statusCode).toBe(409);
    expect(old.headers['set-cookie']).toBeUndefined();
    expect(await whoAmI()).toBe(victim.id);
    // the token of the user already signed in: their session, unchanged
    const own = await inject({
      method: 'GET',
      url: `/api/session?token=${await tokenFor(h, victim.id, 'full')}`,
      headers: { cookie: victimCookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.statusCode).toBe(200);
    expect(own.headers['set-cookie']).toBeUndefined();
    // traccar-web's token login (a fetch from its own page, no session yet) and scripts still sign in
    const spa = await inject({ method: 'GET', url: `/api/session?token=${attackerToken}`, headers: { 'sec-fetch-site': 'same-origin' } });
    expect(spa.statusCode).toBe(200);
    expect(spa.json<User>().id).toBe(attacker.id);
    expect(sessionCookie(spa)).toBeTruthy();
    const fromConsole = await inject({ method: 'GET', url: `/api/session?token=${attackerToken}`, headers: { origin: CONSOLE } });
    expect(fromConsole.statusCode).toBe(200);
    // the other sign-in paths keep their origin check
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/session',
          headers: { origin: 'https://evil.example' },
          payload: { email: victim.email, password: victim.plainPassword },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('refuses to turn a read-only token into a (full) cookie session', async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const token = await tokenFor(h, u.id, 'read');
    expect((await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    const viaQuery = await inject({ method: 'GET', url: `/api/session?token=${token}` });
    expect(viaQuery.statusCode).toBe(403);
    expect(viaQuery.headers['set-cookie']).toBeUndefined();
  });

  it('refuses an expired token, and an expiration in the past (400 naming the field)', async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const token = await tokenFor(h, u.id, 'full', new Date(Date.now() + 3600000).toISOString());
    expect((await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
    h.clock.offsetMs = 2 * 3600000;
    try {
      const expired = await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } });
      expect(expired.statusCode).toBe(401);
      expect(expired.json<{ error: { message: string } }>().error.message).toMatch(/expired/);
    } finally {
      h.clock.offsetMs = 0;
    }
    const past = await inject({
      method: 'POST',
      url: '/api/session/token',
      headers: { authorization: `Bearer ${token}` },
      payload: { expiration: '2020-01-01T00:00:00Z' },
    });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [{ path: 'expiration' }] } });
    const garbage = await inject({ method: 'GET', url: '/api/session', headers: { authorization: 'Bearer crt_nonsense' } });
    expect(garbage.statusCode).toBe(401);
  });

  it("honours the read scope and revocation; someone else's token is 404 unless you are an administrator", async () => {
    const u = await createUser(h, ['admin']);
    const other = await createUser(h, ['company_user'], 202);
    const read = await tokenFor(h, u.id, 'read');
    expect((await inject({ method: 'GET', url: '/api/users', headers: { authorization: `Bearer ${read}` } })).statusCode).toBe(200);
    const write = await inject({ method: 'POST', url: '/api/session/token', headers: { authorization: `Bearer ${read}` }, payload: {} });
    expect(write.statusCode).toBe(403);

    const full = await tokenFor(h, u.id);
    const othersToken = await tokenFor(h, other.id);
    const otherAuth = { authorization: `Bearer ${othersToken}` };
    const notYours = await inject({ method: 'POST', url: '/api/session/token/revoke', headers: otherAuth, payload: { token: full } });
    expect(notYours.statusCode).toBe(404);
    const revoked = await inject({
      method: 'POST',
      url: '/api/session/token/revoke',
      headers: { authorization: `Bearer ${full}` },
      payload: { token: full },
    });
    expect(revoked.statusCode).toBe(204);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${full}` } })).statusCode).toBe(401);
    const byAdmin = await inject({
      method: 'POST',
      url: '/api/session/token/revoke',
      headers: { authorization: basic(ADMIN.email, ADMIN.password) },
      payload: { token: othersToken },
    });
    expect(byAdmin.statusCode).toBe(204);
    expect((await inject({ method: 'GET', url: '/api/session', headers: otherAuth })).statusCode).toBe(401);
  });
});

describe('basic auth', () => {
  it('accepts the right credentials statelessly and refuses wrong ones and other schemes', async () => {
    const ok = await inject({ method: 'GET', url: '/api/session', headers: { authorization: basic(ADMIN.email, ADMIN.password) } });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['set-cookie']).toBeUndefined();
    // from an address of its own: the failure makes that address wait, not the one the other tests sign in from
    expect(
      (
        await inject({
          method: 'GET',
          url: '/api/users',
          headers: { authorization: basic(ADMIN.email, 'nope-nope') },
          remoteAddress: '203.0.113.250',
        })
      ).statusCode,
    ).toBe(401);
    expect((await inject({ method: 'GET', url: '/api/users', headers: { authorization: 'Digest abc' } })).statusCode).toBe(401);
    expect((await inject({ method: 'GET', url: '/api/users', headers: { authorization: 'Basic !!!' } })).statusCode).toBe(401);
  });

  it('never trusts an identity header sent by a client', async () => {
    const res = await inject({ method: 'GET', url: '/api/users', headers: { 'x-corridor-identity': 'eyJhbGciOiJIUzI1NiJ9.e30.x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('protection', () => {
  it("answers CORS preflights from the console's origin only, with credentials and the CSRF header allowed", async () => {
    const pre = await inject({
      method: 'OPTIONS',
      url: '/api/users',
      headers: {
        origin: CONSOLE,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-requested-with',
      },
    });
    expect(pre.statusCode).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe(CONSOLE);
    expect(pre.headers['access-control-allow-credentials']).toBe('true');
    expect(String(pre.headers['access-control-allow-headers'])).toMatch(/x-requested-with/);
    const foreign = await inject({ method: 'GET', url: '/api/server', headers: { origin: 'https://evil.example' } });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // the console's own cookie requests pass the CSRF check
    const cookie = await login(h, ADMIN.email, ADMIN.password);
    const fromConsole = await inject({
      method: 'DELETE',
      url: '/api/session',
      headers: { cookie, origin: CONSOLE, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(fromConsole.statusCode).toBe(204);
  });

  it('sends security headers on every answer', async () => {
    const res = await inject({ method: 'GET', url: '/api/server' });
    expect(res.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
      'referrer-policy': 'no-referrer',
    });
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
  });

  it('answers 400 to the OpenID endpoints when no provider is configured', async () => {
    expect((await inject({ method: 'GET', url: '/api/session/openid/auth' })).statusCode).toBe(400);
    expect((await inject({ method: 'GET', url: '/api/server' })).json()).toMatchObject({ openIdEnabled: false });
  });
});
