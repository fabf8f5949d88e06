import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { companiesEndpoints, type Company, type ErrorBody } from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers, userWith } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { build, type OpsApiService } from '../app';
import { companiesRepository } from './repository';
import { seedCompanies } from './seed';

let adapters: TestAdapters;
let svc: OpsApiService;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

type Page = { items: Company[]; total: number };
const get = async (who: Parameters<typeof asUser>[0], q = '') =>
  svc.app.inject({ method: 'GET', url: `/api/companies${q}`, headers: await asUser(who) });

describe('companies', () => {
  it('seeds the Kenyan and Tanzanian companies once, with 101 and 202 among them, and new ids after them', async () => {
    const repo = companiesRepository(adapters.db.orm);
    expect(await repo.seedIfEmpty()).toBe(0); // build() already seeded
    expect((await repo.get(101))?.country).toBe('KE');
    expect((await repo.get(202))?.country).toBe('TZ');
    const max = Math.max(...seedCompanies.map((c) => c.id));
    const rows = await adapters.db.rows<{ id: number }>(
      sql`insert into ops.companies (name, country, kind) values ('Rusumo Haulage Ltd', 'RW', 'transporter') returning id`,
    );
    expect(rows[0]!.id).toBeGreaterThan(max);
  });

  it('lets the association list and filter every company; a company user sees only their own', async () => {
    const all = (await get(testUsers.officer, '?limit=100')).json<Page>();
    expect(all.total).toBeGreaterThanOrEqual(seedCompanies.length);
    const tz = (await get(testUsers.analyst, '?country=TZ&kind=transporter')).json<Page>();
    expect(tz.items.map((c) => c.id)).toEqual([202]);
    const named = (await get(testUsers.officer, '?q=kilindini')).json<Page>();
    expect(named.items.map((c) => c.id)).toEqual([102]);
    const own = (await get(testUsers.companyB)).json<Page>();
    expect(own.items.map((c) => c.id)).toEqual([202]);
    const none = (await get(userWith(['company_user'], null))).json<Page>();
    expect(none.items).toEqual([]);
  });

  it('reads one company by id: staff any company, a company user their own only (another answers 404 like an unknown id)', async () => {
    const one = async (who: Parameters<typeof asUser>[0], id: number | string) =>
      svc.app.inject({ method: 'GET', url: `/api/companies/${id}`, headers: await asUser(who) });
    const tz = await one(testUsers.officer, 202);
    expect(tz.statusCode, tz.body).toBe(200);
    expect(tz.json<Company>()).toMatchObject({ id: 202, country: 'TZ' });
    expect((await one(testUsers.companyB, 202)).json<Company>().id).toBe(202);
    for (const [who, id] of [
      [testUsers.companyB, 101],
      [testUsers.officer, 99_999],
      [userWith(['company_user'], null), 101],
    ] as const) {
      const res = await one(who, id);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
      expect(res.json<ErrorBody>().error.code).toBe('NOT_FOUND');
    }
    expect((await one(testUsers.officer, 'x')).statusCode).toBe(400);
  });

  it('names every company to any signed-in user (to complain about another), without registry numbers', async () => {
    const res = await get(testUsers.companyB, '/names?q=pwani');
    expect(res.statusCode, res.body).toBe(200);
    const items = res.json<{ items: Record<string, unknown>[] }>().items;
    expect(items).toEqual([{ id: 101, name: expect.stringMatching(/Pwani/), country: 'KE', kind: 'transporter' }]);
    const all = (await get(userWith(['company_user'], null), '/names')).json<{ items: unknown[]; total: number }>();
    expect(all.total).toBeGreaterThanOrEqual(seedCompanies.length);
  });

  it('answers 400 naming a bad filter', async () => {
    const res = await get(testUsers.officer, '?country=FR');
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error.message).toContain('country');
  });

  it('an administrator registers a company and corrects it, audited with before and after; nobody else may, and bad input is refused by field', async () => {
    const send = async (who: Parameters<typeof asUser>[0], method: 'POST' | 'PUT', url: string, payload: unknown) =>
      svc.app.inject({ method, url, payload: payload as object, headers: await asUser(who) });
    const input = { name: 'Kagera Haulage Ltd', country: 'TZ', kind: 'transporter', registrationNumber: '  ', taxPin: '123456789' };
    const made = await send(testUsers.admin, 'POST', '/api/companies', input);
    expect(made.statusCode, made.body).toBe(201);
    const company = made.json<Company>();
    expect(company).toMatchObject({
      name: 'Kagera Haulage Ltd',
      country: 'TZ',
      kind: 'transporter',
      registrationNumber: null,
      taxPin: '123456789',
    });
    const fixed = await send(testUsers.admin, 'PUT', `/api/companies/${company.id}`, {
      ...input,
      name: 'Kagera Haulage (T) Ltd',
      kind: 'shipper',
      registrationNumber: 'BRELA-1234',
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json<Company>()).toMatchObject({
      id: company.id,
      name: 'Kagera Haulage (T) Ltd',
      kind: 'shipper',
      registrationNumber: 'BRELA-1234',
      createdAt: company.createdAt,
    });
    expect((await get(testUsers.officer, '?q=kagera')).json<Page>().items.map((c) => c.name)).toEqual(['Kagera Haulage (T) Ltd']);
    const trail = await adapters.db.rows<{ action: string; before: { name: string } | null; after: { name: string } }>(
      sql`select action, before, after from ops.audit_log where entity_type = 'company' and entity_id = ${String(company.id)} order by id`,
    );
    expect(trail.map((r) => [r.action, r.before?.name ?? null, r.after.name])).toEqual([
      ['company.create', null, 'Kagera Haulage Ltd'],
      ['company.update', 'Kagera Haulage Ltd', 'Kagera Haulage (T) Ltd'],
    ]);
    for (const who of [testUsers.officer, testUsers.analyst, testUsers.companyB]) {
      expect((await send(who, 'POST', '/api/companies', input)).statusCode).toBe(403);
      expect((await send(who, 'PUT', `/api/companies/${company.id}`, input)).statusCode).toBe(403);
    }
    expect((await send(testUsers.admin, 'PUT', '/api/companies/99999', input)).statusCode).toBe(404);
    const bad = await send(testUsers.admin, 'POST', '/api/companies', { ...input, name: ' ', country: 'FR' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/name/);
    expect(bad.body).toMatch(/country/);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: companiesEndpoints[0] });
  runCommonRouteTests({ app: () => svc.app, endpoint: companiesEndpoints[2], params: { id: '101' } });
  runCommonRouteTests({ app: () => svc.app, endpoint: companiesEndpoints[1] });
  runCommonRouteTests({ app: () => svc.app, endpoint: companiesEndpoints[3], invalidBody: { name: '', country: 'KE', kind: 'shipper' } });
  runCommonRouteTests({
    app: () => svc.app,
    endpoint: companiesEndpoints[4],
    params: { id: '101' },
    invalidBody: { name: 'Pwani Freight Movers Ltd', country: 'KE', kind: 'nobody' },
  });
});
