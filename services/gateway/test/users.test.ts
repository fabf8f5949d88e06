import type { InjectOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { User, UserCreate } from '@corridor/contracts';
import { audit } from '../src/audit/audit';
import { ensureBootstrapAdmin } from '../src/auth/bootstrap-admin';
import { passwordHasher } from '../src/auth/password-hash';
import { usersRepository } from '../src/users/repository';
import { readUserDirectory } from '@corridor/platform';
import { eventually } from '@corridor/platform/testing/eventually';
import { ADMIN, basic, createUser, login, startGateway, tokenFor, type Harness } from './harness';

/** /api/users: administrators manage everyone; users read and edit their own settings only. */
let h: Harness;
let adminAuth: { authorization: string };
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);

beforeAll(async () => {
  // waits after failed sign-ins long enough that no pause of a busy machine ends one; tests move the clock past them
  h = await startGateway({ env: { LOGIN_DELAY_SECONDS: '300' } });
  adminAuth = { authorization: `Bearer ${await tokenFor(h, 1)}` };
});
// tests move the clock past sign-in waits; each starts from the real time
afterEach(() => {
  h.clock.offsetMs = 0;
});
afterAll(async () => {
  await h?.close();
});

const newUser = (over: Partial<Record<keyof UserCreate, unknown>> = {}) => ({
  name: 'Wanjiru Kamau',
  email: `wk${Math.random().toString(36).slice(2, 8)}@transit.test`,
  password: 'a-long-password',
  roles: ['company_user'],
  companyId: 101,
  ...over,
});

describe('users', () => {
  it('creates, reads, lists (filtered, paginated), updates and deletes, auditing each change', async () => {
    const body = newUser({ phone: '+254700000001', attributes: { lang: 'sw' } });
    const created = await inject({ method: 'POST', url: '/api/users', headers: adminAuth, payload: body });
    expect(created.statusCode, created.body).toBe(200);
    const u = created.json<User>();
    expect(u).toMatchObject({
      name: 'Wanjiru Kamau',
      email: body.email,
      roles: ['company_user'],
      companyId: 101,
      administrator: false,
      disabled: false,
      deviceLimit: -1,
      attributes: { lang: 'sw' },
    });
    expect(JSON.stringify(created.json())).not.toMatch(/scrypt/);
    expect((await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: adminAuth })).json<User>()).toEqual(u);
    await login(h, body.email as string, body.password as string);

    const byCompany = await inject({
      method: 'GET',
      url: '/api/users?companyId=101&role=company_user&keyword=wanjiru&limit=1',
      headers: adminAuth,
    });
    expect(byCompany.statusCode).toBe(200);
    expect(byCompany.json<User[]>().map((x) => x.id)).toEqual([u.id]);
    expect((await inject({ method: 'GET', url: '/api/users?companyId=999', headers: adminAuth })).json()).toEqual([]);
    const page2 = await inject({ method: 'GET', url: '/api/users?limit=1&offset=1', headers: adminAuth });
    expect(page2.json<User[]>()).toHaveLength(1);

    const updated = await inject({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      headers: adminAuth,
      payload: { ...u, password: undefined, roles: ['clearing_agent'], disabled: true },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<User>()).toMatchObject({ roles: ['clearing_agent'], disabled: true });

    expect((await inject({ method: 'DELETE', url: `/api/users/${u.id}`, headers: adminAuth })).statusCode).toBe(204);
    expect((await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: adminAuth })).statusCode).toBe(404);
    const trail = await audit.forEntity(h.adapters.db.orm, 'user', u.id);
    expect(trail.map((r) => r.action)).toEqual(['user.delete', 'user.update', 'user.create']);
    expect(trail[1]).toMatchObject({ actorUserId: 1, before: { disabled: false }, after: { disabled: true } });
  });

  it("publishes each user's language, units and time zone in the directory (report files and notices use them)", async () => {
    const body = newUser({
      attributes: { language: 'sw', speedUnit: 'mph', distanceUnit: 'mi', timezone: 'Africa/Nairobi', notes: 'not published' },
    });
    const created = await inject({ method: 'POST', url: '/api/users', headers: adminAuth, payload: body });
    expect(created.statusCode, created.body).toBe(200);
    const u = created.json<User>();
    const entry = await eventually('the user in the directory', async () =>
      (await readUserDirectory(h.adapters.cache)).find((x) => x.id === u.id),
    );
    expect(entry).toEqual({
      id: u.id,
      companyId: 101,
      email: body.email,
      roles: ['company_user'],
      language: 'sw',
      preferences: { speedUnit: 'mph', distanceUnit: 'mi', timezone: 'Africa/Nairobi' },
    });
    await inject({ method: 'DELETE', url: `/api/users/${u.id}`, headers: adminAuth });
  });

  it('answers 400 naming the field, 409 on a duplicate email, 404 on an unknown id', async () => {
    const bad = await inject({ method: 'POST', url: '/api/users', headers: adminAuth, payload: newUser({ email: 'not-an-email' }) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [{ path: 'email' }] } });
    const short = await inject({ method: 'POST', url: '/api/users', headers: adminAuth, payload: newUser({ password: 'short' }) });
    expect(short.json()).toMatchObject({ error: { details: [{ path: 'password' }] } });
    const twice = await inject({
      method: 'POST',
      url: '/api/users',
      headers: adminAuth,
      payload: newUser({ roles: ['dispatcher', 'dispatcher'] }),
    });
    expect(twice.json()).toMatchObject({ error: { details: [{ path: 'roles' }] } });
    const badRole = await inject({ method: 'POST', url: '/api/users', headers: adminAuth, payload: newUser({ roles: ['superuser'] }) });
    expect(badRole.statusCode).toBe(400);

    const body = newUser();
    expect((await inject({ method: 'POST', url: '/api/users', headers: adminAuth, payload: body })).statusCode).toBe(200);
    const dup = await inject({
      method: 'POST',
      url: '/api/users',
      headers: adminAuth,
      payload: { ...body, email: (body.email as string).toUpperCase() },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ error: { code: 'CONFLICT', details: { field: 'email' } } });

    expect((await inject({ method: 'GET', url: '/api/users/999999', headers: adminAuth })).statusCode).toBe(404);
    expect(
      (await inject({ method: 'PUT', url: '/api/users/999999', headers: adminAuth, payload: newUser({ password: undefined }) })).statusCode,
    ).toBe(404);
    expect((await inject({ method: 'DELETE', url: '/api/users/999999', headers: adminAuth })).statusCode).toBe(404);
  });

  it("creates users as traccar-web does (no roles; Traccar's flags), and answers the flags the roles imply", async () => {
    // traccar-web's UserPage saves what its form holds: no roles, no company (its defaultItem for an administrator is { deviceLimit: -1 })
    const web = (over: Record<string, unknown>) => ({
      deviceLimit: -1,
      name: 'Web user',
      email: `web${Math.random().toString(36).slice(2, 8)}@transit.test`,
      password: 'web-password-1',
      ...over,
    });
    const plain = await inject({ method: 'POST', url: '/api/users', headers: adminAuth, payload: web({}) });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json<User>()).toMatchObject({
      roles: ['company_user'],
      administrator: false,
      readonly: true,
      deviceReadonly: true,
      limitCommands: true,
      companyId: null,
    });
    const emptyRoles = await inject({ method: 'POST', url: '/api/users', headers: adminAuth, payload: web({ roles: [] }) });
    expect(emptyRoles.json<User>()).toMatchObject({ roles: ['company_user'] });
    const admin = await inject({
      method: 'POST',
      url: '/api/users',
      headers: adminAuth,
      payload: web({ administrator: true, readonly: false }),
    });
    expect(admin.statusCode, admin.body).toBe(200);
    const a = admin.json<User>();
    expect(a).toMatchObject({ roles: ['admin'], administrator: true, readonly: false, deviceReadonly: false, limitCommands: false });
    // traccar-web's edit echoes what it read (roles included) and flips a flag: the flag wins
    const demoted = await inject({
      method: 'PUT',
      url: `/api/users/${a.id}`,
      headers: adminAuth,
      payload: { ...a, password: undefined, administrator: false },
    });
    expect(demoted.statusCode, demoted.body).toBe(200);
    expect(demoted.json<User>()).toMatchObject({ roles: ['company_user'], administrator: false, readonly: true });
    // an explicit restriction on a writer is kept; an echoed implied one changes nothing
    const dispatcher = (
      await inject({
        method: 'POST',
        url: '/api/users',
        headers: adminAuth,
        payload: web({ roles: ['dispatcher'], companyId: 101, limitCommands: true }),
      })
    ).json<User>();
    expect(dispatcher).toMatchObject({ readonly: false, deviceReadonly: false, limitCommands: true });
    const u = plain.json<User>();
    const self = await createUser(h, ['company_user'], 101);
    const mine = (
      await inject({ method: 'GET', url: `/api/users/${self.id}`, headers: { authorization: basic(self.email, self.plainPassword) } })
    ).json<User>();
    expect(mine.readonly).toBe(true);
    const saved = await inject({
      method: 'PUT',
      url: `/api/users/${self.id}`,
      headers: { authorization: basic(self.email, self.plainPassword) },
      payload: { ...mine, password: undefined, phone: '+254711000000' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(u.id).toBeGreaterThan(0);
  });

  it('lets a user read and edit their own settings only (others are 404; privileged fields 403)', async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const other = await createUser(h, ['dispatcher'], 101);
    const auth = { authorization: basic(u.email, u.plainPassword) };
    const me = await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: auth });
    expect(me.statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: `/api/users/${other.id}`, headers: auth })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/users', headers: auth })).statusCode).toBe(403);

    const mine = me.json<User>();
    const renamed = await inject({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      headers: auth,
      payload: { ...mine, name: 'Renamed', map: 'osm', zoom: 9, password: 'a-new-password-9', currentPassword: u.plainPassword },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<User>()).toMatchObject({ name: 'Renamed', zoom: 9 });
    await login(h, u.email, 'a-new-password-9');

    const newAuth = { authorization: basic(u.email, 'a-new-password-9') };
    const escalate = await inject({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      headers: newAuth,
      payload: { ...mine, roles: ['admin'], companyId: null },
    });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json()).toMatchObject({ error: { code: 'FORBIDDEN', details: { fields: ['roles', 'companyId'] } } });
    expect(
      (await inject({ method: 'PUT', url: `/api/users/${other.id}`, headers: newAuth, payload: { ...mine, id: other.id } })).statusCode,
    ).toBe(404);
    expect((await inject({ method: 'DELETE', url: `/api/users/${u.id}`, headers: newAuth })).statusCode).toBe(403);
  });

  it('keeps an enabled administrator: the last one cannot be deleted, disabled or demoted (409)', async () => {
    const admins = (await inject({ method: 'GET', url: '/api/users?role=admin&limit=1000', headers: adminAuth })).json<User[]>();
    // leave exactly the bootstrap administrator
    for (const a of admins.filter((x) => x.email !== ADMIN.email))
      await inject({ method: 'DELETE', url: `/api/users/${a.id}`, headers: adminAuth });
    const boot = (await inject({ method: 'GET', url: '/api/users/1', headers: adminAuth })).json<User>();
    const del = await inject({ method: 'DELETE', url: '/api/users/1', headers: adminAuth });
    expect(del.statusCode).toBe(409);
    expect(
      (await inject({ method: 'PUT', url: '/api/users/1', headers: adminAuth, payload: { ...boot, disabled: true } })).statusCode,
    ).toBe(409);
    expect(
      (await inject({ method: 'PUT', url: '/api/users/1', headers: adminAuth, payload: { ...boot, roles: ['dispatcher'] } })).statusCode,
    ).toBe(409);
    // with a second administrator, the first may go
    const second = await createUser(h, ['admin']);
    const secondAuth = { authorization: `Bearer ${await tokenFor(h, second.id)}` };
    expect(
      (await inject({ method: 'PUT', url: '/api/users/1', headers: secondAuth, payload: { ...boot, roles: ['association_officer'] } }))
        .statusCode,
    ).toBe(200);
  });

  it('creates the bootstrap administrator only while no enabled administrator exists, promoting a user with that email', async () => {
    const first = (await inject({ method: 'GET', url: '/api/users/1', headers: adminAuth })).json<User>();
    expect(first.email).toBe(ADMIN.email); // created at the first start, on an empty database
    const repo = usersRepository(h.adapters.db.orm);
    const deps = { db: h.adapters.db.orm, users: repo, hasher: passwordHasher(10), logger: h.adapters.logger };
    const candidate = await createUser(h, ['company_user'], 101);
    expect(await ensureBootstrapAdmin(deps, { email: candidate.email, password: 'ignored-here' })).toBe('present');
    const admins = await repo.list({ role: 'admin', disabled: false, limit: 1000, offset: 0 });
    for (const a of admins) await repo.update(a.id, { disabled: true });
    try {
      expect(await ensureBootstrapAdmin(deps, { email: candidate.email.toUpperCase(), password: 'ignored-here' })).toBe('promoted');
      expect((await repo.get(candidate.id))?.roles).toEqual(['company_user', 'admin']);
      expect(await ensureBootstrapAdmin(deps, { email: 'someone-else@corridor.test', password: 'ignored-here' })).toBe('present');
    } finally {
      for (const a of admins) await repo.update(a.id, { disabled: false });
    }
  });

  it("changes one's own password only with the current one, keeps the caller's session and ends the others and the API tokens (issue 11)", async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const mine = (
      await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: { authorization: basic(u.email, u.plainPassword) } })
    ).json<User>();
    const here = await login(h, u.email, u.plainPassword);
    const elsewhere = await login(h, u.email, u.plainPassword);
    const token = await tokenFor(h, u.id);
    const put = (payload: object, cookie = here) =>
      inject({
        method: 'PUT',
        url: `/api/users/${u.id}`,
        headers: { cookie, 'x-requested-with': 'test' },
        payload: { ...mine, ...payload },
      });
    const missing = await put({ password: 'taken-over-pw-1' });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.body).toContain('currentPassword');
    const wrong = await put({ password: 'taken-over-pw-1', currentPassword: 'not-my-password' });
    expect(wrong.statusCode, wrong.body).toBe(403);
    // nothing changed: the old password and every credential still work
    await login(h, u.email, u.plainPassword);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);

    const changed = await put({ password: 'my-new-password-2', currentPassword: u.plainPassword });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie: here } })).statusCode).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie: elsewhere } })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    await login(h, u.email, 'my-new-password-2');

    // an administrator sets another user's password without it (audited), and the user's tokens stop too
    const token2 = await tokenFor(h, u.id);
    const admin = { authorization: `Bearer ${await tokenFor(h, (await createUser(h, ['admin'])).id)}` };
    const reset = await inject({
      method: 'PUT',
      url: `/api/users/${u.id}`,
      headers: admin,
      payload: { ...mine, password: 'set-by-admin-3' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { authorization: `Bearer ${token2}` } })).statusCode).toBe(401);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie: here } })).statusCode).toBe(404);
    const trail = await audit.forEntity(h.adapters.db.orm, 'user', u.id);
    expect(trail.map((r) => r.action)).toContain('user.update+password');
  });

  it("changes one's own email only with the current password, and tells the old address (issue 23: a stolen token took accounts over through a reset)", async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const mine = (
      await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: { authorization: basic(u.email, u.plainPassword) } })
    ).json<User>();
    const stolen = { authorization: `Bearer ${await tokenFor(h, u.id)}` };
    const put = (payload: object, headers: Record<string, string> = stolen) =>
      inject({ method: 'PUT', url: `/api/users/${u.id}`, headers, payload: { ...mine, ...payload } });
    const taken = `attacker.${u.id}@evil.test`;
    const missing = await put({ email: taken });
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json()).toMatchObject({ error: { details: [{ path: 'currentPassword' }] } });
    expect((await put({ email: taken, currentPassword: 'a-guess-1' })).statusCode).toBe(403);
    // a session alone is no better
    const cookie = await login(h, u.email, u.plainPassword);
    expect((await put({ email: taken }, { cookie, 'x-requested-with': 'test' })).statusCode).toBe(400);
    expect(h.emailChanges.filter((n) => n.email === u.email)).toEqual([]);
    // other fields of one's own record need no password (a Traccar client saves its whole user)
    expect((await put({ name: 'Renamed' })).statusCode).toBe(200);

    const moved = `moved.${u.id}@transit.test`;
    const changed = await put({ name: 'Renamed', email: moved, currentPassword: u.plainPassword });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(h.emailChanges.filter((n) => n.email === u.email)).toEqual([
      expect.objectContaining({ email: u.email, newEmail: moved, byAdministrator: false }),
    ]);
    // an administrator needs no password of the user; the old address is told all the same
    const admin = { authorization: `Bearer ${await tokenFor(h, (await createUser(h, ['admin'])).id)}` };
    const byAdmin = await put({ name: 'Renamed', email: `again.${u.id}@transit.test` }, admin);
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect(h.emailChanges.find((n) => n.email === moved)).toMatchObject({ newEmail: `again.${u.id}@transit.test`, byAdministrator: true });
  });

  it('counts wrong current passwords in the sign-in throttle: they lock the address for sign-in and for further guesses (issue 11)', async () => {
    const u = await createUser(h, ['dispatcher'], 101);
    const mine = (
      await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: { authorization: basic(u.email, u.plainPassword) } })
    ).json<User>();
    const cookie = await login(h, u.email, u.plainPassword);
    const guess = (currentPassword: string) =>
      inject({
        method: 'PUT',
        url: `/api/users/${u.id}`,
        headers: { cookie, 'x-requested-with': 'test' },
        payload: { ...mine, password: 'taken-over-pw-1', currentPassword },
      });
    // a first wrong one costs no wait (a typo): a sign-in right after it passes, and clears the count
    expect((await guess('guess-0')).statusCode).toBe(403);
    await login(h, u.email, u.plainPassword);
    // LOGIN_MAX_FAILURES (default 5) wrong ones lock the account at this address; from the second on,
    // each makes the address wait, for sign-in and for another guess alike
    for (let i = 1; i <= 5; i++) {
      expect((await guess(`guess-${i}`)).statusCode).toBe(403);
      if (i >= 2) expect((await guess(`guess-${i}-early`)).statusCode).toBe(429);
      if (i === 2) {
        const waiting = await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: u.plainPassword } });
        expect(waiting.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { delayed: true } } });
      }
      h.clock.offsetMs += 3600_000;
    }
    const locked = await guess(u.plainPassword);
    expect(locked.statusCode, locked.body).toBe(429);
    expect(locked.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { lockedBy: 'account' } } });
    expect((await inject({ method: 'POST', url: '/api/session', payload: { email: u.email, password: u.plainPassword } })).statusCode).toBe(
      429,
    );
    // another address is not locked
    expect(
      (
        await inject({
          method: 'POST',
          url: '/api/session',
          payload: { email: u.email, password: u.plainPassword },
          remoteAddress: '198.51.100.40',
        })
      ).statusCode,
    ).toBe(200);
  });

  it('lets a Traccar client change its own password with Basic credentials and no currentPassword, and nobody else (issue 11)', async () => {
    const u = await createUser(h, ['company_user'], 101);
    const mine = (
      await inject({ method: 'GET', url: `/api/users/${u.id}`, headers: { authorization: basic(u.email, u.plainPassword) } })
    ).json<User>();
    const cookie = await login(h, u.email, u.plainPassword);
    const put = (headers: Record<string, string>, password: string, extra: object = {}) =>
      inject({ method: 'PUT', url: `/api/users/${u.id}`, headers, payload: { ...mine, password, ...extra } });
    // a session or a bearer token proves nothing about the password in this request: 400
    expect((await put({ cookie, 'x-requested-with': 'test' }, 'by-session-pw-1')).statusCode).toBe(400);
    expect((await put({ authorization: `Bearer ${await tokenFor(h, u.id)}` }, 'by-token-pw-1')).statusCode).toBe(400);
    // Basic carries the current password and the gateway checked it for this very request
    const traccar = await put({ authorization: basic(u.email, u.plainPassword) }, 'traccar-new-pw-2');
    expect(traccar.statusCode, traccar.body).toBe(200);
    await login(h, u.email, 'traccar-new-pw-2');
    expect(
      (await inject({ method: 'GET', url: '/api/session', headers: { authorization: basic(u.email, u.plainPassword) } })).statusCode,
    ).toBe(401);
    h.clock.offsetMs += 3600_000; // past the wait after that failure
    // a currentPassword sent along is still checked
    const wrong = await put({ authorization: basic(u.email, 'traccar-new-pw-2') }, 'traccar-new-pw-3', { currentPassword: 'not-it' });
    expect(wrong.statusCode, wrong.body).toBe(403);
    const trail = await audit.forEntity(h.adapters.db.orm, 'user', u.id);
    expect(trail.map((r) => r.action)).toContain('user.update+password');
  });
});
