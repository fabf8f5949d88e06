import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disciplinaryEndpoints,
  type Complaint,
  type DisciplinaryPage,
  type DisciplinaryRecord,
  type NotificationPage,
} from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import type { Identity } from '@corridor/platform';
import { build, type OpsApiService } from '../app';
import { audit } from '../audit/audit';

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

const [list, create] = disciplinaryEndpoints;
const call = async (user: Identity, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  svc.app.inject({ method, url, headers: await asUser(user), payload: payload as never });
const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString();
const warning = {
  subjectType: 'driver',
  subjectRef: 'DL-KE-448812',
  companyId: 101,
  sanctionType: 'warning',
  reason: 'Repeated overspeed on the Mai Mahiu road',
  startsAt: day(-1),
};

async function record(body: Record<string, unknown>): Promise<DisciplinaryRecord> {
  const res = await call(testUsers.officer, 'POST', '/api/disciplinary/admin', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<DisciplinaryRecord>();
}
async function complaintAgainst(companyId: number): Promise<Complaint> {
  const res = await call(testUsers.companyB, 'POST', '/api/complaints', {
    subjectType: 'company',
    subjectRef: String(companyId),
    companyId,
    category: 'delay',
    title: 'Late delivery',
    description: 'Delivered four days after the agreed date.',
  });
  return res.json<Complaint>();
}

describe('POST /disciplinary/admin', () => {
  it('records a fine linked to a complaint, audits it and notifies the company only', async () => {
    const complaint = await complaintAgainst(101);
    const r = await record({
      subjectType: 'company',
      subjectRef: '101',
      companyId: 101,
      sanctionType: 'fine',
      reason: 'Late deliveries after warnings',
      startsAt: day(-2),
      endsAt: day(30),
      fineAmount: 50000,
      fineCurrency: 'KES',
      complaintId: complaint.id,
    });
    expect(r).toMatchObject({
      sanctionType: 'fine',
      fineAmount: 50000,
      fineCurrency: 'KES',
      complaintId: complaint.id,
      active: true,
      recordedBy: { userId: testUsers.officer.userId },
    });
    const [entry] = await audit.forEntity(adapters.db.orm, 'disciplinary_record', r.id);
    expect(entry).toMatchObject({
      action: 'sanction.recorded',
      actorUserId: testUsers.officer.userId,
      companyId: 101,
      before: null,
      reason: 'Late deliveries after warnings',
    });
    expect(entry?.after).toMatchObject({ id: r.id, sanctionType: 'fine' });
    const a = (await call(testUsers.companyA, 'GET', '/api/inbox?type=sanctionRecorded')).json<NotificationPage>();
    const notice = a.items.find((n) => n.entityId === String(r.id));
    // its parameters name the company (the reader's console words the notice from them, in their language)
    expect(notice?.attributes).toMatchObject({
      sanctionType: 'fine',
      subjectType: 'company',
      subjectRef: '101',
      subjectName: 'Pwani Freight Movers Ltd',
      companyName: 'Pwani Freight Movers Ltd',
      reason: 'Late deliveries after warnings',
    });
    const b = (await call(testUsers.companyB, 'GET', '/api/inbox?type=sanctionRecorded')).json<NotificationPage>();
    expect(b.items.some((n) => n.entityId === String(r.id))).toBe(false);
  });

  it('records a sanction on a truck linked to a journey flag', async () => {
    const r = await record({
      ...warning,
      subjectType: 'truck',
      subjectRef: 'T 123 ABC',
      companyId: 202,
      journeyFlagId: 'flag-77',
      sanctionType: 'suspension',
      endsAt: day(14),
    });
    expect(r).toMatchObject({ journeyFlagId: 'flag-77', companyId: 202, active: true });
  });

  it.each([
    ['an end before the start', { endsAt: day(-5) }, 'endsAt'],
    ['a fine without an amount', { sanctionType: 'fine' }, 'fineAmount'],
    ['an amount on a warning', { fineAmount: 100, fineCurrency: 'KES' }, 'fineAmount'],
    ['an amount without a currency', { sanctionType: 'fine', fineAmount: 100 }, 'fineCurrency'],
    ['a company subject that is another company', { subjectType: 'company', subjectRef: '202' }, 'subjectRef'],
    ['a bad currency code', { sanctionType: 'fine', fineAmount: 10, fineCurrency: 'shillings' }, 'fineCurrency'],
    ['an unknown sanction', { sanctionType: 'flogging' }, 'sanctionType'],
  ])('answers 400 to %s, naming the field', async (_, patch, path) => {
    const res = await call(testUsers.officer, 'POST', '/api/disciplinary/admin', { ...warning, ...patch });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json<{ error: { details: { path: string }[] } }>().error.details.map((d) => d.path)).toContain(path);
  });

  it.each([
    ['an unknown company', { companyId: 999_999 }, 'Company 999999 not found'],
    ['an unknown complaint', { complaintId: 987_654 }, 'Complaint 987654 not found'],
  ])('answers 404 to %s, as to an unknown id anywhere', async (_, patch, message) => {
    const res = await call(testUsers.officer, 'POST', '/api/disciplinary/admin', { ...warning, ...patch });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND', message } });
  });

  it('refuses to link a complaint about another company (400 naming complaintId)', async () => {
    const complaint = await complaintAgainst(202);
    const res = await call(testUsers.officer, 'POST', '/api/disciplinary/admin', { ...warning, complaintId: complaint.id });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { details: { path: string }[] } }>().error.details[0]?.path).toBe('complaintId');
  });

  it('answers 403 to company users and analysts', async () => {
    expect((await call(testUsers.companyA, 'POST', '/api/disciplinary/admin', warning)).statusCode).toBe(403);
    expect((await call(testUsers.analyst, 'POST', '/api/disciplinary/admin', warning)).statusCode).toBe(403);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: create, invalidBody: { ...warning, startsAt: 'yesterday' } });
});

describe('GET /disciplinary/admin/all', () => {
  it('filters by company, sanction, subject and activity, with pagination', async () => {
    const past = await record({ ...warning, companyId: 103, subjectRef: 'DL-1', startsAt: day(-60), endsAt: day(-30) });
    const current = await record({
      ...warning,
      companyId: 103,
      subjectRef: 'DL-2',
      sanctionType: 'probation',
      startsAt: day(-10),
      endsAt: day(10),
    });
    const all = (await call(testUsers.analyst, 'GET', '/api/disciplinary/admin/all?companyId=103')).json<DisciplinaryPage>();
    expect(all.items.map((r) => r.id)).toEqual([current.id, past.id]);
    expect(all.items.map((r) => r.active)).toEqual([true, false]);
    const active = (
      await call(testUsers.analyst, 'GET', `/api/disciplinary/admin/all?companyId=103&activeAt=${encodeURIComponent(day(0))}`)
    ).json<DisciplinaryPage>();
    expect(active.items.map((r) => r.id)).toEqual([current.id]);
    const warnings = (
      await call(
        testUsers.analyst,
        'GET',
        '/api/disciplinary/admin/all?companyId=103&sanctionType=warning&subjectType=driver&subjectRef=DL-1',
      )
    ).json<DisciplinaryPage>();
    expect(warnings.items.map((r) => r.id)).toEqual([past.id]);
    const page = (
      await call(testUsers.analyst, 'GET', '/api/disciplinary/admin/all?companyId=103&limit=1&offset=1')
    ).json<DisciplinaryPage>();
    expect(page).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(page.items.map((r) => r.id)).toEqual([past.id]);
  });

  it('answers 400 to a bad filter and 403 to company users', async () => {
    expect((await call(testUsers.officer, 'GET', '/api/disciplinary/admin/all?sanctionType=flogging')).statusCode).toBe(400);
    expect((await call(testUsers.officer, 'GET', '/api/disciplinary/admin/all?companyId=abc')).statusCode).toBe(400);
    expect((await call(testUsers.companyA, 'GET', '/api/disciplinary/admin/all?companyId=101')).statusCode).toBe(403);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: list });
});
