import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  complaintsEndpoints,
  type Complaint,
  type ComplaintDetail,
  type ComplaintPage,
  type ComplaintStatus,
  type ErrorBody,
  type NotificationPage,
} from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import type { Identity } from '@corridor/platform';
import { build, type OpsApiService } from '../app';
import { audit } from '../audit/audit';
import { allowedNext, complaintStatuses } from './workflow';

const REOPEN_DAYS = 7;
const DAY = 86_400_000;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

let adapters: TestAdapters;
let svc: OpsApiService;
beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({
    ...adapters,
    clock,
    logger: adapters.logger,
    identitySecret: TEST_IDENTITY_SECRET,
    complaintReopenDays: REOPEN_DAYS,
  });
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

const [create, list, get, setStatus] = complaintsEndpoints;
const valid = {
  subjectType: 'truck',
  subjectRef: 'KCB 123A',
  companyId: 202,
  category: 'unsafe_driving',
  title: 'Overtaking on a blind bend',
  description: 'Truck KCB 123A overtook on the Salgaa bend at speed.',
};

async function call(user: Identity, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  return svc.app.inject({ method, url, headers: await asUser(user), payload: payload as never });
}
async function file(body: Record<string, unknown> = valid, by: Identity = testUsers.companyA): Promise<Complaint> {
  const res = await call(by, 'POST', '/api/complaints', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Complaint>();
}
const move = (id: number, status: ComplaintStatus, note?: string) =>
  call(testUsers.officer, 'PUT', `/api/complaints/${id}/status`, note === undefined ? { status } : { status, note });

/** The way to bring a new complaint to each state. */
const pathTo: Record<ComplaintStatus, [ComplaintStatus, string?][]> = {
  open: [],
  under_review: [['under_review']],
  resolved: [['under_review'], ['resolved', 'driver retrained']],
  dismissed: [['dismissed', 'no evidence']],
  closed: [['dismissed', 'no evidence'], ['closed']],
};
/** What the workflow allows from each state inside the reopen window (written out, not derived). */
const expectedAllowed: Record<ComplaintStatus, ComplaintStatus[]> = {
  open: ['under_review', 'dismissed'],
  under_review: ['resolved', 'dismissed'],
  resolved: ['open', 'closed'],
  dismissed: ['open', 'closed'],
  closed: ['open'],
};

async function complaintIn(state: ComplaintStatus): Promise<number> {
  const c = await file();
  for (const [status, note] of pathTo[state]) expect((await move(c.id, status, note)).statusCode).toBe(200);
  return c.id;
}

describe('complaint workflow table', () => {
  it('allows exactly the listed changes inside the reopen window and no reopen after it', () => {
    const decidedAt = new Date('2025-03-01T00:00:00Z');
    for (const from of complaintStatuses) {
      const decided = ['resolved', 'dismissed', 'closed'].includes(from) ? decidedAt : null;
      expect(allowedNext({ status: from, decidedAt: decided }, new Date(decidedAt.getTime() + 3 * DAY), REOPEN_DAYS).sort()).toEqual(
        [...expectedAllowed[from]].sort(),
      );
      expect(allowedNext({ status: from, decidedAt: decided }, new Date(decidedAt.getTime() + 8 * DAY), REOPEN_DAYS)).not.toContain('open');
    }
  });
});

describe('POST /complaints', () => {
  it('files a complaint as open, audits it and tells the association officers', async () => {
    const c = await file();
    expect(c).toMatchObject({
      status: 'open',
      companyId: 202,
      filedBy: { userId: testUsers.companyA.userId, companyId: 101 },
      decidedAt: null,
      reopenUntil: null,
    });
    expect(c.allowedNextStatuses.sort()).toEqual(['dismissed', 'under_review']);
    const trail = await audit.forEntity(adapters.db.orm, 'complaint', c.id);
    expect(trail.map((e) => e.action)).toEqual(['complaint.filed']);
    const inbox = (await call(testUsers.officer, 'GET', '/api/inbox?type=complaintFiled')).json<NotificationPage>();
    expect(inbox.items.some((n) => n.entityId === String(c.id))).toBe(true);
    const companyInbox = (await call(testUsers.companyB, 'GET', '/api/inbox?type=complaintFiled')).json<NotificationPage>();
    expect(companyInbox.items.some((n) => n.entityId === String(c.id))).toBe(false);
  });

  it.each([
    ['a company subject that is not the company', { subjectType: 'company', subjectRef: '101' }, 'subjectRef'],
    ['a title too short', { title: 'x' }, 'title'],
    ['an unknown category', { category: 'rudeness' }, 'category'],
  ])('answers 400 to %s, naming the field', async (_, patch, path) => {
    const res = await call(testUsers.companyA, 'POST', '/api/complaints', { ...valid, ...patch });
    expect(res.statusCode).toBe(400);
    const body = res.json<ErrorBody & { error: { details: { path: string }[] } }>();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details.map((d) => d.path)).toContain(path);
  });

  it('answers 404 to an unknown company (a complaint may name any company that exists)', async () => {
    const res = await call(testUsers.companyA, 'POST', '/api/complaints', { ...valid, companyId: 999_999 });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Company 999999 not found' } });
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: create, invalidBody: { ...valid, description: 'short' } });
});

describe('GET /complaints and /complaints/{id}', () => {
  it('lists with filters and pagination, newest first', async () => {
    const a = await file({
      ...valid,
      title: 'Cargo seal broken at Malaba',
      category: 'cargo_damage',
      subjectType: 'company',
      subjectRef: '101',
      companyId: 101,
    });
    const b = await file({
      ...valid,
      title: 'Cargo seal missing at Busia',
      category: 'cargo_damage',
      subjectType: 'company',
      subjectRef: '101',
      companyId: 101,
    });
    const res = await call(testUsers.analyst, 'GET', '/api/complaints?companyId=101&category=cargo_damage&keyword=seal&limit=1');
    expect(res.statusCode).toBe(200);
    const page = res.json<ComplaintPage>();
    expect(page.total).toBe(2);
    expect(page.items.map((c) => c.id)).toEqual([b.id]);
    const next = (
      await call(testUsers.analyst, 'GET', '/api/complaints?companyId=101&category=cargo_damage&keyword=seal&limit=1&offset=1')
    ).json<ComplaintPage>();
    expect(next.items.map((c) => c.id)).toEqual([a.id]);
    const dismissed = (
      await call(testUsers.analyst, 'GET', '/api/complaints?companyId=101&status=dismissed&status=closed')
    ).json<ComplaintPage>();
    expect(dismissed.items.every((c) => ['dismissed', 'closed'].includes(c.status))).toBe(true);
  });

  it('answers 400 to a period that ends before it starts and to a bad status filter', async () => {
    expect((await call(testUsers.officer, 'GET', '/api/complaints?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z')).statusCode).toBe(
      400,
    );
    expect((await call(testUsers.officer, 'GET', '/api/complaints?status=lost')).statusCode).toBe(400);
  });

  it('answers 403 to company users (association only) and 404 to an unknown complaint', async () => {
    const c = await file();
    expect((await call(testUsers.companyA, 'GET', `/api/complaints/${c.id}`)).statusCode).toBe(403);
    expect((await call(testUsers.companyB, 'GET', '/api/complaints')).statusCode).toBe(403);
    const res = await call(testUsers.officer, 'GET', '/api/complaints/987654');
    expect(res.statusCode).toBe(404);
    expect(res.json<ErrorBody>().error.code).toBe('NOT_FOUND');
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: list });
  runCommonRouteTests({ app: () => svc.app, endpoint: get, params: { id: '1' } });
});

describe('PUT /complaints/{id}/status', () => {
  const pairs = complaintStatuses.flatMap((from) => complaintStatuses.map((to) => [from, to] as const));
  it.each(pairs)('%s → %s follows the workflow table', async (from, to) => {
    const id = await complaintIn(from);
    const res = await move(id, to, 'officer note');
    if (expectedAllowed[from].includes(to)) {
      expect(res.statusCode, res.body).toBe(200);
      const c = res.json<ComplaintDetail>();
      expect(c.status).toBe(to);
      expect(c.history.at(-1)).toMatchObject({ from, to, actorUserId: testUsers.officer.userId, note: 'officer note' });
    } else {
      expect(res.statusCode).toBe(409);
      const body = res.json<{ error: { code: string; details: { current: string; allowed: string[] } } }>();
      expect(body.error.code).toBe('INVALID_TRANSITION');
      expect(body.error.details.current).toBe(from);
      expect([...body.error.details.allowed].sort()).toEqual([...expectedAllowed[from]].sort());
      expect((await call(testUsers.officer, 'GET', `/api/complaints/${id}`)).json<ComplaintDetail>().status).toBe(from);
    }
  });

  it('records every change in the history and the audit trail, and tells the filer', async () => {
    const id = await complaintIn('resolved');
    const c = (await call(testUsers.officer, 'GET', `/api/complaints/${id}`)).json<ComplaintDetail>();
    expect(c.history.map((h) => [h.from, h.to])).toEqual([
      [null, 'open'],
      ['open', 'under_review'],
      ['under_review', 'resolved'],
    ]);
    expect(c.resolution).toBe('driver retrained');
    expect(c.reopenUntil).not.toBeNull();
    const trail = await audit.forEntity(adapters.db.orm, 'complaint', id);
    expect(trail[0]).toMatchObject({
      action: 'complaint.status',
      before: { status: 'under_review' },
      after: { status: 'resolved' },
      reason: 'driver retrained',
    });
    const inbox = (await call(testUsers.companyA, 'GET', '/api/inbox?type=complaintStatusChanged&unread=true')).json<NotificationPage>();
    expect(inbox.items.filter((n) => n.entityId === String(id)).map((n) => n.attributes.to)).toEqual(['resolved', 'under_review']);
  });

  it('refuses a reopen once the window has closed, naming the allowed states', async () => {
    const id = await complaintIn('closed');
    offsetMs = (REOPEN_DAYS + 1) * DAY;
    try {
      const res = await move(id, 'open', 'new evidence');
      expect(res.statusCode).toBe(409);
      const body = res.json<{ error: { message: string; details: { current: string; allowed: string[]; reopenUntil: string } } }>();
      expect(body.error.details).toMatchObject({ current: 'closed', allowed: [] });
      expect(body.error.message).toMatch(/can no longer be reopened/);
    } finally {
      offsetMs = 0;
    }
    expect((await move(id, 'open', 'new evidence')).statusCode).toBe(200);
  });

  it('needs a note to resolve, dismiss or reopen (400 naming note)', async () => {
    const id = await complaintIn('under_review');
    const res = await move(id, 'resolved');
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { details: { path: string }[] } }>().error.details[0]?.path).toBe('note');
  });

  it('answers 404 to an unknown complaint and 403 to the company that filed it', async () => {
    expect((await move(987654, 'under_review')).statusCode).toBe(404);
    const c = await file();
    expect((await call(testUsers.companyA, 'PUT', `/api/complaints/${c.id}/status`, { status: 'under_review' })).statusCode).toBe(403);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: setStatus, params: { id: '1' }, invalidBody: { status: 'lost' } });
});
