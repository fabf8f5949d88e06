import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEndpoints, IdentityAuditEntity, type IdentityAuditPage, type User } from '@corridor/contracts';
import { runAuditQueryTests } from '@corridor/platform/testing/audit-route-tests';
import { audit } from '../src/audit/audit';
import { ADMIN, createUser, startGateway, tokenFor, type Harness } from './harness';

/** GET /api/audit/identity: identity decisions made through the API, read back by administrators and officers. */
let h: Harness;
const auth: Record<'admin' | 'officer' | 'analyst' | 'dispatcher' | 'company', { authorization: string }> = {} as never;
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);
const read = (query: string, who: keyof typeof auth = 'officer') =>
  inject({ method: 'GET', url: `/api/audit/identity${query}`, headers: auth[who] });

let started: Date;
let subject: User;

beforeAll(async () => {
  h = await startGateway();
  auth.admin = { authorization: `Bearer ${await tokenFor(h, 1)}` };
  const people = [
    ['officer', 'association_officer', null],
    ['analyst', 'association_analyst', null],
    ['dispatcher', 'dispatcher', 101],
    ['company', 'company_user', 101],
  ] as const;
  for (const [key, role, companyId] of people) {
    const u = await createUser(h, [role], companyId);
    auth[key] = { authorization: `Bearer ${await tokenFor(h, u.id)}` };
  }
  started = new Date();
  // the decisions under review: an administrator creates a user, then disables them
  const created = await inject({
    method: 'POST',
    url: '/api/users',
    headers: auth.admin,
    payload: {
      name: 'Achieng Otieno',
      email: `ao${Date.now()}@transit.test`,
      password: 'a-long-password',
      roles: ['company_user'],
      companyId: 101,
    },
  });
  expect(created.statusCode, created.body).toBe(200);
  subject = created.json<User>();
  const updated = await inject({
    method: 'PUT',
    url: `/api/users/${subject.id}`,
    headers: auth.admin,
    payload: { ...subject, password: undefined, disabled: true },
  });
  expect(updated.statusCode, updated.body).toBe(200);
});
afterAll(async () => {
  await h?.close();
});

runAuditQueryTests({
  app: () => h.gateway.app,
  endpoint: auditEndpoints[0],
  headers: async () => auth.officer,
  foreignEntityType: 'shipment',
});

describe('GET /api/audit/identity', () => {
  it('reads back the decisions on one user, newest first, with who, from where, before and after', async () => {
    const res = await read(`?entityType=user&entityId=${subject.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<IdentityAuditPage>();
    expect(page).toMatchObject({ total: 2, limit: 100, offset: 0 });
    expect(page.items.map((e) => [e.action, e.entityType, e.entityId, e.actor])).toEqual([
      ['user.update', 'user', String(subject.id), { userId: 1, email: ADMIN.email }],
      ['user.create', 'user', String(subject.id), { userId: 1, email: ADMIN.email }],
    ]);
    expect(page.items[0]).toMatchObject({
      before: { disabled: false },
      after: { disabled: true },
      address: expect.any(String),
      requestId: expect.any(String),
    });
    expect(page.items[1]!.before).toBeNull();
    expect(Date.parse(page.items[0]!.at)).toBeGreaterThanOrEqual(Date.parse(page.items[1]!.at));
  });

  it('pages with limit and offset, the total counting every match', async () => {
    const first = (await read(`?entityType=user&entityId=${subject.id}&limit=1`)).json<IdentityAuditPage>();
    const second = (await read(`?entityType=user&entityId=${subject.id}&limit=1&offset=1`)).json<IdentityAuditPage>();
    expect([first.total, first.limit, first.offset, first.items.map((e) => e.action)]).toEqual([2, 1, 0, ['user.update']]);
    expect([second.total, second.limit, second.offset, second.items.map((e) => e.action)]).toEqual([2, 1, 1, ['user.create']]);
    expect((await read(`?entityType=user&entityId=${subject.id}&offset=2`)).json<IdentityAuditPage>()).toMatchObject({
      items: [],
      total: 2,
    });
  });

  it('filters by actor, actions (comma list or repeated) and period, combined', async () => {
    const since = started.toISOString();
    const byAdmin = (
      await read(`?actorUserId=1&action=user.create,user.update&from=${encodeURIComponent(since)}`)
    ).json<IdentityAuditPage>();
    expect(byAdmin.items.map((e) => [e.action, e.entityId])).toEqual([
      ['user.update', String(subject.id)],
      ['user.create', String(subject.id)],
    ]);
    const repeated = (
      await read(`?actorUserId=1&action=user.create&action=user.update&from=${encodeURIComponent(since)}`)
    ).json<IdentityAuditPage>();
    expect(repeated.items).toEqual(byAdmin.items);
    const creates = (await read(`?entityId=${subject.id}&action=user.create`)).json<IdentityAuditPage>();
    expect(creates.items.map((e) => e.action)).toEqual(['user.create']);
    // tokens issued in the set-up were issued before `started`; the user decisions after
    const tokensSince = (await read(`?entityType=token&from=${encodeURIComponent(since)}`)).json<IdentityAuditPage>();
    expect(tokensSince.total).toBe(0);
    expect((await read('?entityType=token')).json<IdentityAuditPage>().total).toBeGreaterThanOrEqual(5);
    const before = new Date(started.getTime() - 60_000).toISOString();
    expect((await read(`?entityId=${subject.id}&to=${encodeURIComponent(before)}`)).json<IdentityAuditPage>().total).toBe(0);
    expect((await read(`?actorUserId=999999`)).json<IdentityAuditPage>()).toMatchObject({ items: [], total: 0 });
  });

  it('serves every entry unfiltered, anonymous actors included, and agrees with the trail', async () => {
    const res = await read('?limit=1000', 'admin');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<IdentityAuditPage>();
    const direct = await audit.list(h.adapters.db.orm, { limit: 1000, offset: 0 });
    expect(page.total).toBe(direct.total);
    expect(page.items.map((e) => e.id)).toEqual(direct.rows.map((r) => r.id));
    // the harness creates users as nobody signed in: the actor is null on the wire
    expect(page.items.some((e) => e.actor.userId === null)).toBe(true);
  });

  it('answers 401 without credentials, 403 to analysts, dispatchers and company users', async () => {
    const anonymous = await inject({ method: 'GET', url: '/api/audit/identity' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    for (const who of ['analyst', 'dispatcher', 'company'] as const) {
      const res = await read('', who);
      expect(res.statusCode, who).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    expect((await read('', 'admin')).statusCode).toBe(200);
  });

  it("the contract's entity types are the trail's", () => {
    expect(IdentityAuditEntity.options).toEqual([...audit.entityTypes]);
  });
});
