import type { InjectOptions } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@corridor/contracts';
import { audit } from '../src/audit/audit';
import { ADMIN, basic, createUser, login, sessionCookie, startGateway, tokenFor, type Harness } from './harness';

/**
 * The TOTP second factor: confirmed enrolment, sign-in with no / wrong / right / replayed codes
 * (one step of tolerance either side), lockout after wrong codes, removal by an administrator, and
 * a password reset that leaves the key in place. Codes are made by otpauth's own generator at the
 * gateway's (test) clock, so the checks do not depend on the wall clock's position in a step.
 */
let h: Harness;
let adminAuth: { authorization: string };
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);
const STEP_MS = 30000;

beforeAll(async () => {
  // no wait between failed sign-ins here: these tests set the clock to TOTP steps (the waits are session.test.ts's)
  h = await startGateway({ env: { LOGIN_MAX_FAILURES: '3', LOGIN_LOCKOUT_SECONDS: '60', LOGIN_DELAY_SECONDS: '0' } });
  adminAuth = { authorization: `Bearer ${await tokenFor(h, 1)}` };
});
afterAll(async () => {
  await h?.close();
});

/** Moves the gateway's clock to one second into the given step (seconds since the epoch / 30). */
function setStep(step: number): number {
  h.clock.offsetMs = step * STEP_MS + 1000 - Date.now();
  return step;
}
/** Moves the gateway's clock to one second into the step `steps` steps from the real now. */
const atStep = (steps: number): number => setStep(Math.floor(Date.now() / STEP_MS) + steps);
const codeAt = (secret: string, step: number): string =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: step * STEP_MS + 1000 });

const signIn = (email: string, password: string, code?: string | number) =>
  inject({ method: 'POST', url: '/api/session', payload: code === undefined ? { email, password } : { email, password, code } });

/** A user with a confirmed second factor; returns the user and its secret. */
async function enrolled(roles: Parameters<typeof createUser>[1] = ['dispatcher']) {
  const u = await createUser(h, roles, roles.includes('admin') ? null : 101);
  const auth = { authorization: `Bearer ${await tokenFor(h, u.id)}` };
  const gen = await inject({ method: 'POST', url: '/api/users/totp', headers: auth });
  expect(gen.statusCode, gen.body).toBe(200);
  const step = atStep(0);
  const ok = await inject({ method: 'POST', url: '/api/users/totp/confirm', headers: auth, payload: { code: codeAt(gen.body, step) } });
  expect(ok.statusCode, ok.body).toBe(200);
  return { u, secret: gen.body, auth, confirmedAt: step };
}

describe('TOTP enrolment', () => {
  it('answers a base32 secret that stays pending until a first code confirms it, then never shows it again', async () => {
    const u = await createUser(h, ['company_user'], 101);
    const cookie = await login(h, u.email, u.plainPassword);
    const headers = { cookie, 'x-requested-with': 'test' };
    const gen = await inject({ method: 'POST', url: '/api/users/totp', headers });
    expect(gen.statusCode, gen.body).toBe(200);
    expect(gen.headers['content-type']).toMatch(/^text\/plain/);
    expect(gen.headers['cache-control']).toBe('no-store');
    const secret = gen.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // pending only: the password alone still signs in, and the user shows no second factor
    const me = await inject({ method: 'GET', url: '/api/session', headers: { cookie } });
    expect(me.json<User>().totpEnabled).toBe(false);
    expect((await signIn(u.email, u.plainPassword)).statusCode).toBe(200);

    const step = atStep(0);
    const wrong = await inject({ method: 'POST', url: '/api/users/totp/confirm', headers, payload: { code: codeAt(secret, step - 3) } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: [{ in: 'body', path: 'code', reason: 'codeWrong' }] },
    });
    const malformed = await inject({ method: 'POST', url: '/api/users/totp/confirm', headers, payload: { code: 'abcdef' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ error: { message: string } }>().error.message).toMatch(/code/);

    const ok = await inject({ method: 'POST', url: '/api/users/totp/confirm', headers, payload: { code: codeAt(secret, step) } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<User>()).toMatchObject({ id: u.id, totpEnabled: true });
    const trail = await audit.forEntity(h.adapters.db.orm, 'user', u.id);
    expect(trail.map((r) => r.action)).toContain('user.totp-enable');
    expect(trail.find((r) => r.action === 'user.totp-enable')).toMatchObject({ actorUserId: u.id });

    // the key is never returned: not to the user, not to an administrator, not in the audit trail
    const views = [
      (await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: adminAuth })).body,
      (await inject({ method: 'GET', url: `/api/users?keyword=${encodeURIComponent(u.email)}`, headers: adminAuth })).body,
      (await inject({ method: 'GET', url: '/api/session', headers: { cookie } })).body,
      JSON.stringify(await audit.forEntity(h.adapters.db.orm, 'user', u.id)),
    ];
    for (const v of views) expect(v).not.toContain(secret);
    expect(JSON.parse(views[0]!)).toMatchObject({ totpEnabled: true });
    expect(JSON.parse(views[0]!)).not.toHaveProperty('totpKey');

    // an active key is not replaced by the user; confirm without a pending secret is 409
    expect((await inject({ method: 'POST', url: '/api/users/totp', headers })).statusCode).toBe(409);
    const none = await inject({ method: 'POST', url: '/api/users/totp/confirm', headers, payload: { code: codeAt(secret, step + 1) } });
    expect(none.statusCode).toBe(409);
    // a user may not slip a key in through PUT /users/{id} either: unknown fields are dropped
    const current = (await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: adminAuth })).json<User>();
    const put = await inject({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      headers: adminAuth,
      payload: { ...current, password: null, totpKey: 'AAAAAAAAAAAAAAAA', totpEnabled: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<User>().totpEnabled).toBe(true);
    h.clock.offsetMs = 0;
  });

  it('requires a session or token to start, and a new request replaces a pending secret', async () => {
    expect((await inject({ method: 'POST', url: '/api/users/totp' })).statusCode).toBe(401);
    const u = await createUser(h, ['association_analyst']);
    const auth = { authorization: `Bearer ${await tokenFor(h, u.id)}` };
    const first = (await inject({ method: 'POST', url: '/api/users/totp', headers: auth })).body;
    const second = (await inject({ method: 'POST', url: '/api/users/totp', headers: auth })).body;
    expect(second).not.toBe(first);
    const step = atStep(0);
    expect(
      (await inject({ method: 'POST', url: '/api/users/totp/confirm', headers: auth, payload: { code: codeAt(first, step) } })).statusCode,
    ).toBe(400);
    expect(
      (await inject({ method: 'POST', url: '/api/users/totp/confirm', headers: auth, payload: { code: codeAt(second, step) } })).statusCode,
    ).toBe(200);
    h.clock.offsetMs = 0;
  });
});

describe('sign-in with a second factor', () => {
  it('answers 401 with WWW-Authenticate: TOTP without a code, 401 to a wrong one, a session to the right one', async () => {
    const { u, secret } = await enrolled();
    const step = atStep(1);
    const missing = await signIn(u.email, u.plainPassword);
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('TOTP');
    // each 401 names its reason (contracts SignInRefusal), which clients word themselves
    expect(missing.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED', details: { reason: 'codeRequired' } } });
    expect(missing.headers['set-cookie']).toBeUndefined();

    const wrong = await signIn(u.email, u.plainPassword, codeAt(secret, step + 5));
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['www-authenticate']).toBeUndefined();
    expect(wrong.json<{ error: { message: string } }>().error.message).toMatch(/one-time code/);
    expect(wrong.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED', details: { reason: 'codeWrong' } } });
    // a right code does not rescue a wrong password
    const wrongPassword = await signIn(u.email, 'not-the-password', codeAt(secret, step));
    expect(wrongPassword.statusCode).toBe(401);
    expect(wrongPassword.json()).toMatchObject({ error: { details: { reason: 'credentialsWrong' } } });

    const ok = await inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${encodeURIComponent(u.email)}&password=${encodeURIComponent(u.plainPassword)}&code=${codeAt(secret, step)}`,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    const me = await inject({ method: 'GET', url: '/api/session', headers: { cookie: sessionCookie(ok) } });
    expect(me.json<User>()).toMatchObject({ id: u.id, totpEnabled: true });
    const logins = (await audit.forEntity(h.adapters.db.orm, 'session', u.id)).filter((r) => r.action === 'session.login');
    expect(logins[0]?.after).toEqual({ secondFactor: 'totp' });
    h.clock.offsetMs = 0;
  });

  it('accepts a code of the previous or next step, refuses two steps off, and refuses a code used already', async () => {
    const { u, secret, confirmedAt } = await enrolled();
    const now = setStep(confirmedAt + 2);
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, now - 2))).statusCode).toBe(401);
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, now + 2))).statusCode).toBe(401);
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, now - 1))).statusCode).toBe(200);
    // the same code again within its window: replay
    const replay = await signIn(u.email, u.plainPassword, codeAt(secret, now - 1));
    expect(replay.statusCode).toBe(401);
    expect(replay.json<{ error: { message: string } }>().error.message).toMatch(/used already/);
    expect(replay.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED', details: { reason: 'codeUsed' } } });
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, now + 1))).statusCode).toBe(200);
    // once a later step was used, the current step's code is refused too (RFC 6238 §5.2)
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, now))).statusCode).toBe(401);
    // the confirming code counted as used
    const { u: v, secret: s2, confirmedAt: c2 } = await enrolled();
    setStep(c2);
    expect((await signIn(v.email, v.plainPassword, codeAt(s2, c2))).statusCode).toBe(401);
    h.clock.offsetMs = 0;
  });

  it('takes the code as a number, as Traccar clients send it (leading zeros lost)', async () => {
    const { u, secret, confirmedAt } = await enrolled();
    let step = confirmedAt + 1;
    while (!codeAt(secret, step).startsWith('0')) step += 1; // one step in ten has a leading zero
    setStep(step);
    const code = codeAt(secret, step);
    const res = await signIn(u.email, u.plainPassword, Number(code));
    expect(res.statusCode, `${code}: ${res.body}`).toBe(200);
    expect((await signIn(u.email, u.plainPassword, 'x12345')).statusCode).toBe(400);
    h.clock.offsetMs = 0;
  });

  it('counts wrong codes toward the lockout (a missing code does not), lifts the lock for the right password with a valid code, and refuses basic auth', async () => {
    const { u, secret } = await enrolled();
    const step = atStep(1);
    for (let i = 0; i < 4; i++) expect((await signIn(u.email, u.plainPassword)).statusCode).toBe(401);
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, step + 3))).statusCode).toBe(401);
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, step + 4))).statusCode).toBe(401);
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, step + 5))).statusCode).toBe(401);
    // locked: the right password alone, or with a wrong code, answers 429 like any guess
    expect((await signIn(u.email, u.plainPassword)).statusCode).toBe(429);
    expect((await signIn(u.email, 'not-the-password', codeAt(secret, step))).statusCode).toBe(429);
    expect((await signIn(u.email, u.plainPassword, codeAt(secret, step + 6))).statusCode).toBe(429);
    // the right password with a valid code lifts the lock (issue 11)
    const lifted = await signIn(u.email, u.plainPassword, codeAt(secret, step));
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect((await signIn(u.email, 'wrong-again')).statusCode).toBe(401);

    const { u: b } = await enrolled();
    const viaBasic = await inject({
      method: 'GET',
      url: '/api/users/' + b.id,
      headers: { authorization: basic(b.email, b.plainPassword) },
    });
    expect(viaBasic.statusCode).toBe(401);
    h.clock.offsetMs = 0;
  });

  it('keeps the key through a password reset', async () => {
    const { u, secret } = await enrolled();
    expect((await inject({ method: 'POST', url: '/api/password/reset', payload: { email: u.email } })).statusCode).toBe(200);
    const notice = h.notices.at(-1)!;
    expect(notice.email).toBe(u.email);
    expect(
      (await inject({ method: 'POST', url: '/api/password/update', payload: { token: notice.token, password: 'a-new-password-1' } }))
        .statusCode,
    ).toBe(200);
    const step = atStep(1);
    const missing = await signIn(u.email, 'a-new-password-1');
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('TOTP');
    expect((await signIn(u.email, 'a-new-password-1', codeAt(secret, step))).statusCode).toBe(200);
    h.clock.offsetMs = 0;
  });
});

describe('removal by an administrator', () => {
  it('removes the key (audited), 404 when there is none or no such user, 403 to others', async () => {
    const { u, auth } = await enrolled();
    expect((await inject({ method: 'DELETE', url: `/api/users/${u.id}/totp`, headers: auth })).statusCode).toBe(403);
    const officer = await createUser(h, ['association_officer']);
    expect(
      (
        await inject({
          method: 'DELETE',
          url: `/api/users/${u.id}/totp`,
          headers: { authorization: `Bearer ${await tokenFor(h, officer.id)}` },
        })
      ).statusCode,
    ).toBe(403);
    expect((await inject({ method: 'DELETE', url: `/api/users/${u.id}/totp` })).statusCode).toBe(401);

    const admin = await login(h, ADMIN.email, ADMIN.password);
    const removed = await inject({
      method: 'DELETE',
      url: `/api/users/${u.id}/totp`,
      headers: { cookie: admin, 'x-requested-with': 'test' },
    });
    expect(removed.statusCode, removed.body).toBe(204);
    expect((await signIn(u.email, u.plainPassword)).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: adminAuth })).json<User>().totpEnabled).toBe(false);
    const entry = (await audit.forEntity(h.adapters.db.orm, 'user', u.id)).find((r) => r.action === 'user.totp-remove');
    expect(entry).toMatchObject({ actorUserId: 1, before: { totpEnabled: true }, after: { totpEnabled: false } });

    const again = await inject({ method: 'DELETE', url: `/api/users/${u.id}/totp`, headers: adminAuth });
    expect(again.statusCode).toBe(404);
    expect(again.json<{ error: { message: string } }>().error.message).toMatch(/no TOTP/);
    expect((await inject({ method: 'DELETE', url: '/api/users/999999/totp', headers: adminAuth })).json()).toMatchObject({
      error: { code: 'NOT_FOUND', message: 'User 999999 not found' },
    });
    expect((await inject({ method: 'DELETE', url: '/api/users/abc/totp', headers: adminAuth })).statusCode).toBe(400);
    // the user may enrol again afterwards
    expect((await inject({ method: 'POST', url: '/api/users/totp', headers: auth })).statusCode).toBe(200);
  });
});

describe('turning it off oneself', () => {
  const disable = (headers: Record<string, string>, payload: Record<string, unknown>) =>
    inject({ method: 'POST', url: '/api/users/totp/disable', headers, payload });

  it('with a current code: the code counts once, a wrong one is refused, then sign-in needs no code (audited)', async () => {
    const { u, secret, auth, confirmedAt } = await enrolled();
    // the confirming code was used already; a code two steps on is not current
    const used = await disable(auth, { code: codeAt(secret, confirmedAt) });
    expect(used.statusCode, used.body).toBe(400);
    expect(used.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: [{ in: 'body', path: 'code', reason: 'codeUsed' }] },
    });
    const notCurrent = await disable(auth, { code: codeAt(secret, confirmedAt + 3) });
    expect(notCurrent.statusCode).toBe(400);
    expect(notCurrent.json()).toMatchObject({ error: { details: [{ path: 'code', reason: 'codeWrong' }] } });
    expect((await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: auth })).json<User>().totpEnabled).toBe(true);

    const step = setStep(confirmedAt + 1);
    const off = await disable(auth, { code: codeAt(secret, step) });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<User>()).toMatchObject({ id: u.id, totpEnabled: false });
    expect((await signIn(u.email, u.plainPassword)).statusCode).toBe(200);
    const entry = (await audit.forEntity(h.adapters.db.orm, 'user', u.id)).find((r) => r.action === 'user.totp-disable');
    expect(entry).toMatchObject({ actorUserId: u.id, before: { totpEnabled: true }, after: { totpEnabled: false } });
    // nothing left to turn off
    expect((await disable(auth, { code: codeAt(secret, step) })).json()).toMatchObject({ error: { code: 'CONFLICT' } });
    h.clock.offsetMs = 0;
  });

  it('with the password when the authenticator is lost (a wrong one 403); either a code or the password, not both or neither', async () => {
    const { u, secret, auth, confirmedAt } = await enrolled();
    expect((await disable(auth, {})).statusCode).toBe(400);
    expect((await disable(auth, { code: codeAt(secret, confirmedAt + 1), password: u.plainPassword })).statusCode).toBe(400);
    const wrong = await disable(auth, { password: 'not-the-password' });
    expect(wrong.statusCode, wrong.body).toBe(403);
    expect(wrong.json()).toMatchObject({ error: { code: 'FORBIDDEN', details: { field: 'password' } } });
    const off = await disable(auth, { password: u.plainPassword });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json<User>().totpEnabled).toBe(false);
    expect((await disable({}, { password: u.plainPassword })).statusCode).toBe(401);
    h.clock.offsetMs = 0;
  });

  it('counts wrong codes and passwords as failed sign-ins: the account is locked after LOGIN_MAX_FAILURES (429)', async () => {
    const { u, auth } = await enrolled();
    for (let i = 0; i < 3; i++) expect((await disable(auth, { password: `wrong-${i}` })).statusCode).toBe(403);
    const locked = await disable(auth, { password: u.plainPassword });
    expect(locked.statusCode, locked.body).toBe(429);
    expect((await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: auth })).json<User>().totpEnabled).toBe(true);
    h.clock.offsetMs = 0;
  });
});
