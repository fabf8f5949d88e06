import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationsEndpoints, type Notification, type NotificationPage, type NotificationSettings } from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers, userWith } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import type { Identity } from '@corridor/platform';
import { build, type OpsApiService } from '../app';
import { notificationsRepository } from './repository';
import { notificationsService, type Notice } from './service';

let adapters: TestAdapters;
let svc: OpsApiService;
let notify: (n: Notice) => Promise<number>;
beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
  const notifications = notificationsService({ repo: notificationsRepository(adapters.db.orm), clock: adapters.clock, mailEnabled: false });
  notify = (n) => notifications.notify(adapters.db.orm, n);
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

const [inbox, markRead, getSettings, updateSettings] = notificationsEndpoints;
const call = async (user: Identity, method: 'GET' | 'PUT', url: string, payload?: unknown) =>
  svc.app.inject({ method, url, headers: await asUser(user), payload: payload as never });
const inboxOf = async (user: Identity, query = '') => {
  const res = await call(user, 'GET', `/api/inbox${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationPage>();
};
const notice = (to: Notice['to'], patch: Partial<Notice> = {}): Notice => ({
  type: 'certificateApproved',
  title: 'Certificate approved',
  message: 'SUC-1 approved',
  entityType: 'single_use_certificate',
  entityId: 1,
  to,
  ...patch,
});

describe('GET /inbox', () => {
  it('shows what is addressed to the user, their company or their role, and nothing of another company', async () => {
    const forCompanyA = await notify(notice({ companyId: 101 }));
    const forAgent = await notify(notice({ userId: testUsers.agentA.userId }, { type: 'certificateRejected' }));
    const forOfficers = await notify(notice({ role: 'association_officer' }, { type: 'certificateSubmitted', companyId: 101 }));
    const forCompanyB = await notify(notice({ companyId: 202 }));

    const a = await inboxOf(testUsers.companyA);
    expect(a.items.map((n) => n.id)).toEqual([forCompanyA]);
    const agent = await inboxOf(testUsers.agentA);
    expect(agent.items.map((n) => n.id).sort()).toEqual([forCompanyA, forAgent].sort());
    const officer = await inboxOf(testUsers.officer);
    expect(officer.items.map((n) => n.id)).toEqual([forOfficers]);
    expect(officer.items[0]).toMatchObject({ companyId: 101, type: 'certificateSubmitted', readAt: null });
    const b = await inboxOf(testUsers.companyB);
    expect(b.items.map((n) => n.id)).toEqual([forCompanyB]);
    expect(b.unreadCount).toBe(1);
  });

  it('filters by unread, type and period, newest first, with pagination', async () => {
    const user = userWith(['company_user'], 103, 501);
    const ids: number[] = [];
    for (const type of ['certificateApproved', 'sanctionRecorded', 'certificateApproved'] as const)
      ids.push(await notify(notice({ userId: user.userId }, { type })));
    const all = await inboxOf(user);
    expect(all.items.map((n) => n.id)).toEqual([...ids].reverse());
    expect((await inboxOf(user, '?type=sanctionRecorded')).items.map((n) => n.id)).toEqual([ids[1]]);
    expect((await inboxOf(user, '?limit=1&offset=1')).items.map((n) => n.id)).toEqual([ids[1]]);
    expect((await inboxOf(user, '?limit=1')).total).toBe(3);
    expect((await call(user, 'PUT', `/api/inbox/${ids[0]}/read`)).statusCode).toBe(200);
    const unread = await inboxOf(user, '?unread=true');
    expect(unread.items.map((n) => n.id)).toEqual([ids[2], ids[1]]);
    expect(unread.unreadCount).toBe(2);
    expect((await inboxOf(user, '?unread=false')).items.map((n) => n.id)).toEqual([ids[0]]);
    expect((await inboxOf(user, '?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z')).total).toBe(0);
    expect((await inboxOf(user, `?from=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`)).total).toBe(3);
  });

  it('answers 400 to a bad filter', async () => {
    expect((await call(testUsers.companyA, 'GET', '/api/inbox?unread=maybe')).statusCode).toBe(400);
    expect((await call(testUsers.companyA, 'GET', '/api/inbox?type=parcelArrived')).statusCode).toBe(400);
    expect((await call(testUsers.companyA, 'GET', '/api/inbox?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z')).statusCode).toBe(400);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: inbox });
});

describe('PUT /inbox/{id}/read', () => {
  it('marks a company notice read for that user only, idempotently', async () => {
    const id = await notify(notice({ companyId: 101 }, { type: 'complaintFiled' }));
    const first = await call(testUsers.companyA, 'PUT', `/api/inbox/${id}/read`);
    expect(first.statusCode).toBe(200);
    const n = first.json<Notification>();
    expect(n.readAt).not.toBeNull();
    const again = await call(testUsers.companyA, 'PUT', `/api/inbox/${id}/read`);
    expect(again.json<Notification>().readAt).toBe(n.readAt);
    const agent = await inboxOf(testUsers.agentA, '?type=complaintFiled');
    expect(agent.items.find((x) => x.id === id)?.readAt).toBeNull();
  });

  it("answers 404 to another company's notice and to an unknown one", async () => {
    const id = await notify(notice({ companyId: 202 }));
    expect((await call(testUsers.companyA, 'PUT', `/api/inbox/${id}/read`)).statusCode).toBe(404);
    expect((await call(testUsers.companyA, 'PUT', '/api/inbox/99999999/read')).statusCode).toBe(404);
    expect((await inboxOf(testUsers.companyB)).items.find((x) => x.id === id)?.readAt).toBeNull();
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: markRead, params: { id: '1' } });
});

describe('/settings/notification', () => {
  const user = userWith(['company_user'], 103, 502);

  it('shows the defaults (web on, email and webhook off) until saved', async () => {
    const res = await call(user, 'GET', '/api/settings/notification');
    expect(res.statusCode).toBe(200);
    const s = res.json<NotificationSettings>();
    expect(s.updatedAt).toBeNull();
    expect(s.channels.certificateApproved).toEqual({ web: true, email: false, webhook: false });
    expect(Object.keys(s.channels)).toHaveLength(10);
  });

  it('saves per-type channels; a type with web off leaves the inbox; other users keep theirs', async () => {
    const saved = await call(user, 'PUT', '/api/settings/notification', {
      channels: { sanctionRecorded: { web: false, email: false, webhook: true } },
      webhookUrl: 'https://hooks.example.test/corridor',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<NotificationSettings>()).toMatchObject({
      channels: { sanctionRecorded: { web: false, email: false, webhook: true }, certificateApproved: { web: true } },
      webhookUrl: 'https://hooks.example.test/corridor',
    });
    await notify(notice({ companyId: 103 }, { type: 'sanctionRecorded' }));
    const approved = await notify(notice({ companyId: 103 }, { type: 'certificateApproved' }));
    const mine = await inboxOf(user);
    expect(mine.items.map((n) => n.id)).toEqual([approved]);
    expect(mine.unreadCount).toBe(1);
    const colleague = await inboxOf(userWith(['company_user'], 103, 503));
    expect(colleague.items.map((n) => n.type).sort()).toEqual(['certificateApproved', 'sanctionRecorded']);
    // a later partial save keeps the other fields
    const partial = await call(user, 'PUT', '/api/settings/notification', {
      channels: { certificateApproved: { web: true, email: false, webhook: true } },
    });
    expect(partial.json<NotificationSettings>()).toMatchObject({
      webhookUrl: 'https://hooks.example.test/corridor',
      channels: { sanctionRecorded: { web: false } },
    });
  });

  it('answers 400 naming webhookUrl when a webhook channel is on without one', async () => {
    const res = await call(userWith(['company_user'], 103, 504), 'PUT', '/api/settings/notification', {
      channels: { complaintFiled: { web: true, email: false, webhook: true } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { details: { path: string }[] } }>().error.details[0]?.path).toBe('webhookUrl');
  });

  it('without a mail channel (no SMTP_URL), refuses to turn an email switch on, as a rule asking for mail is refused; webhook stays allowed', async () => {
    const who = userWith(['company_user'], 103, 506);
    type Refusal = { error: { code: string; message: string; details: { in: string; path: string; message: string }[] } };
    const res = await call(who, 'PUT', '/api/settings/notification', {
      channels: {
        certificateApproved: { web: true, email: false, webhook: true },
        complaintStatusChanged: { web: true, email: true, webhook: false },
      },
      webhookUrl: 'https://hooks.example.test/x',
    });
    expect(res.statusCode, res.body).toBe(400);
    const refusal = res.json<Refusal>().error;
    expect(refusal).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ in: 'body', path: 'channels.complaintStatusChanged.email' }] });
    expect(refusal.message).toMatch(
      /^body\.channels\.complaintStatusChanged\.email: mail is not available: the server has no mail channel \(SMTP_URL\)$/,
    );
    expect((await call(who, 'GET', '/api/settings/notification')).json<NotificationSettings>().updatedAt).toBeNull(); // nothing of it saved
    // the same refusal, word for word, as a notification rule asking for mail
    const rule = await svc.app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: await asUser({ ...userWith(['dispatcher'], 103, 507), email: 'dispatch@company-c.test' }),
      payload: { type: 'alarm', always: true, notificators: 'mail' } as never,
    });
    expect(rule.statusCode, rule.body).toBe(400);
    expect(rule.json<Refusal>().error.details[0]!.message).toBe(refusal.details[0]!.message);
    // a notification email, which could never be verified (issue 23): the same refusal, naming email
    const address = await call(who, 'PUT', '/api/settings/notification', { email: 'ops@athi.example' });
    expect(address.statusCode, address.body).toBe(400);
    expect(address.json<Refusal>().error.details).toEqual([{ in: 'body', path: 'email', message: refusal.details[0]!.message }]);
    // the webhook alone is allowed
    const hook = await call(who, 'PUT', '/api/settings/notification', {
      channels: { complaintStatusChanged: { web: true, email: false, webhook: true } },
      webhookUrl: 'https://hooks.example.test/x',
    });
    expect(hook.statusCode, hook.body).toBe(200);
    // a switch already on (saved while the server had mail) may stay on in a save, and be turned off
    await notificationsRepository(adapters.db.orm).saveSettings({
      userId: who.userId,
      channels: { sanctionRecorded: { web: true, email: true, webhook: false } },
      email: null,
      pendingEmail: null,
      pendingEmailToken: null,
      pendingEmailExpiresAt: null,
      webhookUrl: 'https://hooks.example.test/x',
      updatedAt: new Date(),
    });
    const kept = await call(who, 'PUT', '/api/settings/notification', {
      channels: { sanctionRecorded: { web: false, email: true, webhook: false } },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const off = await call(who, 'PUT', '/api/settings/notification', {
      channels: { sanctionRecorded: { web: true, email: false, webhook: false } },
    });
    expect(off.json<NotificationSettings>().channels.sanctionRecorded).toEqual({ web: true, email: false, webhook: false });
    expect(
      (await call(who, 'PUT', '/api/settings/notification', { channels: { sanctionRecorded: { web: true, email: true, webhook: false } } }))
        .statusCode,
    ).toBe(400);
  });

  it('refuses a webhookUrl naming an internal address, as notification rules do (issue 11)', async () => {
    const who = userWith(['company_user'], 103, 505);
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://127.0.0.1:6379/',
      'http://10.0.0.5/hook',
      'http://[::ffff:192.168.1.1]/',
      'https://user:pw@hooks.example.test/',
    ]) {
      const res = await call(who, 'PUT', '/api/settings/notification', { webhookUrl: url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ error: { details: { path: string }[] } }>().error.details[0]?.path).toBe('webhookUrl');
    }
    expect((await call(who, 'GET', '/api/settings/notification')).json<NotificationSettings>().webhookUrl).toBeNull();
    expect((await call(who, 'PUT', '/api/settings/notification', { webhookUrl: 'https://hooks.example.test/mine' })).statusCode).toBe(200);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: getSettings });
  runCommonRouteTests({ app: () => svc.app, endpoint: updateSettings, invalidBody: { channels: { certificateApproved: { web: 'yes' } } } });
});
