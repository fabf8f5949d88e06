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
    const one = async (who: Parameters<typeof asUser>[0], id: number | string) => svc.app.inject({ method: 'GET', url: `/api/companies/${id}`, headers: await asUser(who) });
    const tz = await one(testUsers.officer, 202);
    expect(tz.statusCode, tz.body).toBe(200);
    expect(tz.json<Company>()).toMatchObject({ id: 202, country: 'TZ' });
    expect((await one(testUsers.companyB, 202)).json<Company>().id).toBe(202);
    for (const [who, id] of [[testUsers.companyB, 101], [testUsers.officer, 99_999], [userWith(['company_user'], null), 101]] as const) {
      const res = await one(who, id);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(404);
      expect(res.json<ErrorBody>().error.code).toBe('NOT_FOUND');
    }
    expect((await one(testUsers.officer, 'x')).statusCode).toBe(400);
  });

  it('answers 400 naming a bad filter', async () => {
    const res = await get(testUsers.officer, '?country=FR');
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error.message).toContain('country');
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: companiesEndpoints[0] });
  runCommonRouteTests({ app: () => svc.app, endpoint: companiesEndpoints[1], params: { id: '101' } });
});
