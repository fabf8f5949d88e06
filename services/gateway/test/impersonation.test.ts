import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@corridor/contracts';
import { audit } from '../src/audit/audit';
import { ADMIN, createUser, login, sessionCookie, startGateway, tokenFor, type Harness } from './harness';

/**
 * GET /session/{id}: an administrator's session becomes a session of the user, recording the
 * administrator; audited at both ends; DELETE /session signs out (no way back to the admin's rights).
 */
let h: Harness;
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);
const csrf = { 'x-requested-with': 'test' };

beforeAll(async () => {
  h = await startGateway();
});
afterAll(async () => {
  await h?.close();
});

const impersonate = (id: number, headers: Record<string, string>) => inject({ method: 'GET', url: `/api/session/${id}`, headers });
const me = (cookie: string) => inject({ method: 'GET', url: '/api/session', headers: { cookie } });

describe('impersonation', () => {
  it("switches an administrator's session to the user, ends the admin's session, and audits who impersonated whom", async () => {
    const u = await createUser(h, ['company_user'], 101);
    const admin = await login(h, ADMIN.email, ADMIN.password);
    const res = await impersonate(u.id, { cookie: admin, ...csrf });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<User>()).toMatchObject({ id: u.id, email: u.email, administrator: false });
    const cookie = sessionCookie(res);
    expect(cookie).not.toBe(admin);
    expect((await me(cookie)).json<User>().id).toBe(u.id);
    // the user's rights now, not the administrator's
    expect((await inject({ method: 'GET', url: '/api/users', headers: { cookie } })).statusCode).toBe(403);
    expect((await me(admin)).statusCode).toBe(404);

    const [entry] = (await audit.forEntity(h.adapters.db.orm, 'session', u.id)).filter((r) => r.action === 'session.impersonate');
    expect(entry).toMatchObject({
      actorUserId: 1,
      actorEmail: ADMIN.email,
      after: { userId: u.id, email: u.email, impersonatorId: 1, impersonatorEmail: ADMIN.email, via: 'cookie' },
    });

    // an impersonation session does not mint tokens that would outlive it
    const token = await inject({ method: 'POST', url: '/api/session/token', headers: { cookie, ...csrf }, payload: {} });
    expect(token.statusCode).toBe(403);

    // sign-out ends it, on record under the administrator; nothing hands the admin's rights back
    const out = await inject({ method: 'DELETE', url: '/api/session', headers: { cookie, ...csrf } });
    expect(out.statusCode).toBe(204);
    expect((await me(cookie)).statusCode).toBe(404);
    expect((await me(admin)).statusCode).toBe(404);
    const [end] = (await audit.forEntity(h.adapters.db.orm, 'session', u.id)).filter((r) => r.action === 'session.impersonation-end');
    expect(end).toMatchObject({ actorUserId: 1, actorEmail: ADMIN.email, before: { userId: u.id, impersonatorId: 1 } });
  });

  it('works with a bearer token too (the cookie is set), and keeps the first administrator on record through a chain', async () => {
    const a2 = await createUser(h, ['admin']);
    const u = await createUser(h, ['dispatcher'], 101);
    const res = await impersonate(a2.id, { authorization: `Bearer ${await tokenFor(h, 1)}` });
    expect(res.statusCode, res.body).toBe(200);
    const asA2 = sessionCookie(res);
    const next = await impersonate(u.id, { cookie: asA2, ...csrf });
    expect(next.statusCode, next.body).toBe(200);
    const [entry] = (await audit.forEntity(h.adapters.db.orm, 'session', u.id)).filter((r) => r.action === 'session.impersonate');
    expect(entry).toMatchObject({ actorUserId: 1, after: { impersonatorId: 1 } });
    // the first administrator cannot be impersonated from their own chain: they sign in again
    expect((await impersonate(1, { cookie: sessionCookie(next), ...csrf })).statusCode).toBe(403); // u is no admin
    const back = await impersonate(1, {
      cookie: await impersonate(a2.id, { authorization: `Bearer ${await tokenFor(h, 1)}` }).then(sessionCookie),
      ...csrf,
    });
    expect(back.statusCode).toBe(400);
  });

  it('refuses others (403), unknown users (404), disabled or expired users (403), oneself (400), a read-only token, and a cookie GET without X-Requested-With', async () => {
    const admin = { authorization: `Bearer ${await tokenFor(h, 1)}` };
    const u = await createUser(h, ['company_user'], 101);
    for (const role of ['association_officer', 'dispatcher', 'company_user'] as const) {
      const other = await createUser(h, [role], role === 'association_officer' ? null : 101);
      const res = await impersonate(u.id, { authorization: `Bearer ${await tokenFor(h, other.id)}` });
      expect(res.statusCode, role).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    expect((await impersonate(u.id, {})).statusCode).toBe(401);

    const unknown = await impersonate(999999, admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'User 999999 not found' } });
    expect((await impersonate(0, admin)).statusCode).toBe(400);

    const disabled = await createUser(h, ['company_user'], 101);
    const current = (await inject({ method: 'GET', url: `/api/users/${disabled.id}`, headers: admin })).json<User>();
    await inject({
      method: 'PUT',
      url: `/api/users/${disabled.id}`,
      headers: admin,
      payload: { ...current, password: null, disabled: true },
    });
    const refused = await impersonate(disabled.id, admin);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'FORBIDDEN', details: { userId: disabled.id } } });
    expect(refused.json<{ error: { message: string } }>().error.message).toMatch(/disabled/);
    await inject({
      method: 'PUT',
      url: `/api/users/${disabled.id}`,
      headers: admin,
      payload: { ...current, password: null, expirationTime: '2020-01-01T00:00:00Z' },
    });
    expect((await impersonate(disabled.id, admin)).json<{ error: { message: string } }>().error.message).toMatch(/expired/);

    // a read-only token does not become a full session of someone else
    const readOnly = await impersonate(u.id, { authorization: `Bearer ${await tokenFor(h, 1, 'read')}` });
    expect(readOnly.statusCode).toBe(403);
    expect(readOnly.json<{ error: { message: string } }>().error.message).toMatch(/read-only/);

    const self = await impersonate(1, admin);
    expect(self.statusCode).toBe(400);
    expect(self.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [{ in: 'params', path: 'id' }] } });

    const cookie = await login(h, ADMIN.email, ADMIN.password);
    const noMarker = await impersonate(u.id, { cookie });
    expect(noMarker.statusCode).toBe(403);
    expect(noMarker.json<{ error: { message: string } }>().error.message).toMatch(/X-Requested-With/);
    expect((await me(cookie)).json<User>().id).toBe(1); // still the administrator
    expect((await audit.forEntity(h.adapters.db.orm, 'session', u.id)).filter((r) => r.action === 'session.impersonate')).toEqual([]);
  });

  it('ends the impersonation when the administrator is disabled, loses the role, or changes password', async () => {
    const root = { authorization: `Bearer ${await tokenFor(h, 1)}` };
    const u = await createUser(h, ['company_user'], 101);
    const cases: [string, (a: User) => Record<string, unknown>][] = [
      ['disabled', (a) => ({ ...a, password: null, disabled: true })],
      ['demoted', (a) => ({ ...a, password: null, roles: ['association_officer'] })],
      ['new password', (a) => ({ ...a, password: 'another-password-9' })],
    ];
    for (const [what, change] of cases) {
      const a = await createUser(h, ['admin']);
      const started = await impersonate(u.id, { cookie: await login(h, a.email, a.plainPassword), ...csrf });
      expect(started.statusCode, what).toBe(200);
      const cookie = sessionCookie(started);
      expect((await me(cookie)).statusCode, what).toBe(200);
      const put = await inject({ method: 'PUT', url: `/api/users/${a.id}`, headers: root, payload: change(a) });
      expect(put.statusCode, `${what}: ${put.body}`).toBe(200);
      expect((await me(cookie)).statusCode, what).toBe(404);
    }
  });
});
