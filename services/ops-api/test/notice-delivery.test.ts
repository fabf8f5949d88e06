import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Certificate, Complaint, DisciplinaryRecord, IdfExtraction, NotificationType, SanctionType } from '@corridor/contracts';
import { testUsers } from '@corridor/platform/testing/identity';
import { publishUsers } from '@corridor/platform/testing/registry';
import { eventually } from '@corridor/platform/testing/eventually';
import type { Identity } from '@corridor/platform';
import { cargos, noticeDeliveries, notifications, notificationSettings, singleUseCertificates } from '../src/db/schema';
import { parseOutboundAllowList } from '../src/notification-rules/outbound-address';
import { startHarness, type Harness } from './tracking-harness';
import { linkToken, startSmtpServer } from './smtp-server';
import { startWebhookReceiver } from './webhook-receiver';

/**
 * Inbox notices by mail and webhook (/settings/notification): a certificate decision's, a complaint's
 * and a sanction's notice reach, after the decision commits, each addressed user who turned the type's email or webhook
 * channel on, through the rules' SMTP channel (a local SMTP server started here) and webhook channel
 * (a local HTTP listener, on the allow-list as an internal receiver); once per notice, user and
 * channel, however often it is looked at.
 */
interface Mail {
  to: string;
  raw: string;
}
const mails: Mail[] = [];
const hooks: Record<string, unknown>[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let http: Awaited<ReturnType<typeof startWebhookReceiver>>;
let dead: Awaited<ReturnType<typeof startWebhookReceiver>>;
let hookUrl = '';
let deadUrl = '';
let h: Harness;
const night = { userId: 9, email: 'night@company-a.test', name: 'Night desk', roles: ['company_user'], companyId: 101 } satisfies Identity;
const planner = {
  userId: 11,
  email: 'planner@company-a.test',
  name: 'Planner',
  roles: ['company_user'],
  companyId: 101,
} satisfies Identity;
/** A user of company 101 who reads Swahili (their account's language, as the gateway's directory publishes it). */
const mwajuma = {
  userId: 12,
  email: 'mwajuma@company-a.test',
  name: 'Mwajuma',
  roles: ['company_user'],
  companyId: 101,
} satisfies Identity;
const clerkB = {
  userId: 10,
  email: 'clerk@company-b.test',
  name: 'Company B clerk',
  roles: ['company_user'],
  companyId: 202,
} satisfies Identity;

beforeAll(async () => {
  smtp = await startSmtpServer((to, raw) => to.forEach((address) => mails.push({ to: address, raw })));
  http = await startWebhookReceiver((body) => {
    hooks.push(body);
    return 204;
  });
  hookUrl = `${http.url}/hooks/notices`;
  dead = await startWebhookReceiver(() => 500); // answers 500 every time: its deliveries fail
  deadUrl = `${dead.url}/down`;
  h = await startHarness({
    notificationRules: {
      smtpUrl: smtp.url,
      mailFrom: 'Corridor <alerts@corridor.test>',
      webhookAttempts: 2,
      webhookTimeoutMs: 2000,
      webhookBackoffMs: 20,
      webhookPolicy: parseOutboundAllowList('127.0.0.1'), // the local listeners: internal receivers on the allow-list
    },
  });
  // the directory as the gateway publishes it, with roles (a notice to a role reaches its holders)
  await publishUsers(
    h.adapters.cache,
    [...Object.values(testUsers), night, clerkB, planner, mwajuma].map((u) => ({
      id: u.userId,
      companyId: u.companyId,
      email: u.email,
      roles: u.roles,
      ...(u === mwajuma ? { language: 'sw' } : {}),
    })),
  );
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
  await http?.close();
  await dead?.close();
});

async function settings(who: Identity, body: Record<string, unknown>): Promise<void> {
  const res = await h.call(who, 'PUT', '/api/settings/notification', body);
  expect(res.statusCode, res.body).toBe(200);
}
const on = (email: boolean, webhook: boolean) => ({ web: true, email, webhook });
/** Opens the verification link mailed to a notification address, as its owner does. */
async function verifyAddress(address: string): Promise<void> {
  const token = linkToken(mails.findLast((m) => m.to === address && m.raw.includes('Subject: Confirm your notification address'))!.raw);
  const res = await h.svc.app.inject({ method: 'POST', url: '/api/settings/notification/email/verify', payload: { token } });
  expect(res.statusCode, res.body).toBe(200);
}

let idfSeq = 0;
/** A validated cargo of company 101 and its certificate, applied for through the API and moved to submitted (its PDFs are not what is tested here). */
async function submittedCertificate(): Promise<Certificate> {
  const [cargo] = await h.adapters.db.orm
    .insert(cargos)
    .values({
      companyId: 101,
      idfNumber: `24NBOIM${String(++idfSeq).padStart(9, '0')}`,
      importerName: 'Athi River Importers Ltd',
      importerPin: 'P053456789Z',
      consignor: 'Shenzhen Export Co',
      countryOfOrigin: 'CN',
      portOfDischarge: 'Mombasa',
      invoiceValue: 12500,
      currency: 'USD',
      lineItems: [{ hsCode: '8704.21.90', description: 'Light trucks', quantity: 1, unit: 'unit', value: 12500 }],
      extraction: { format: 'json', fields: {}, valid: true, warnings: [] } as unknown as IdfExtraction,
      status: 'validated',
      createdByUserId: testUsers.agentA.userId,
      createdByEmail: testUsers.agentA.email,
    })
    .returning({ id: cargos.id });
  const res = await h.call(testUsers.agentA, 'POST', '/api/single-use-certificates/apply', { cargoId: cargo!.id });
  expect(res.statusCode, res.body).toBe(201);
  const c = res.json<Certificate>();
  await h.adapters.db.orm.update(singleUseCertificates).set({ status: 'submitted' }).where(eq(singleUseCertificates.id, c.id));
  return c;
}
/** An officer records a sanction against company 101 (Pwani Freight Movers Ltd) for `reason`; the notices it makes are then delivered. */
async function sanctionDelivered(sanctionType: SanctionType, reason: string): Promise<DisciplinaryRecord> {
  const res = await h.call(testUsers.officer, 'POST', '/api/disciplinary/admin', {
    subjectType: 'company',
    subjectRef: '101',
    companyId: 101,
    sanctionType,
    reason,
    startsAt: new Date().toISOString(),
  });
  expect(res.statusCode, res.body).toBe(201);
  await h.svc.tracking.notices.check();
  return res.json<DisciplinaryRecord>();
}
const mailsAbout = (number: string, to?: string) => mails.filter((m) => m.raw.includes(number) && (to === undefined || m.to === to));
const deliveriesOf = async (notificationId: number) =>
  h.adapters.db.orm.select().from(noticeDeliveries).where(eq(noticeDeliveries.notificationId, notificationId));
/** The one notice of this type about this entity, which must have been delivered (no longer pending). */
async function noticeAbout(type: NotificationType, entityId: number) {
  const found = (
    await h.adapters.db.orm
      .select()
      .from(notifications)
      .where(eq(notifications.entityId, String(entityId)))
  ).filter((n) => n.type === type);
  expect(found).toHaveLength(1);
  expect(found[0]!.deliveryPending).toBe(false);
  return found[0]!;
}
/** Who the notice reached, on which channel, with which outcome (notice_deliveries), in user then channel order. */
const recordsOf = async (notificationId: number) =>
  (await deliveriesOf(notificationId))
    .map((d) => ({ userId: d.userId, channel: d.channel, status: d.status }))
    .sort((a, b) => a.userId - b.userId || a.channel.localeCompare(b.channel));
const hooksAbout = (type: NotificationType, entityId: number) =>
  hooks.filter((x) => {
    const n = x.notification as { type?: string; entityId?: string };
    return n.type === type && n.entityId === String(entityId);
  });
/** The text of a mail with its quoted-printable soft line breaks undone. */
const unwrapped = (raw: string) => raw.replace(/=\r?\n/g, '');
/** The mails whose text names `about` (a sanction's reason, a complaint's title: the notices name no id). */
const mailsNaming = (about: string) => mails.filter((m) => unwrapped(m.raw).includes(about));
/** Who was mailed a notice with this subject whose body names `about` (a complaint's title: the notice names no id). */
const mailsTitled = (title: string, about: string) =>
  mailsNaming(about)
    .filter((m) => m.raw.includes(`Subject: ${title}`))
    .map((m) => m.to)
    .sort();

describe('inbox notices by mail and webhook', () => {
  it('an approval mails and posts to the company users who turned those channels on, after it commits, once', async () => {
    await settings(testUsers.companyA, { channels: { certificateApproved: on(true, true) }, webhookUrl: hookUrl });
    await settings(testUsers.agentA, { channels: { certificateApproved: on(false, false), certificateApplied: on(true, false) } });
    await settings(night, { channels: { certificateApproved: on(true, true) }, email: 'night-desk@company-a.test', webhookUrl: deadUrl });
    await verifyAddress('night-desk@company-a.test'); // used once verified (issue 23)
    await settings(testUsers.officer, { channels: { certificateApplied: on(true, false) } });
    const c = await submittedCertificate();

    const approved = await h.call(testUsers.officer, 'POST', `/api/single-use-certificates/${c.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(mailsAbout(c.number)).toEqual([]); // nothing is sent in the decision's request
    await h.svc.tracking.notices.check();

    // companyA (email and webhook on): one mail to the account email, one POST
    const toA = mailsAbout(c.number, testUsers.companyA.email);
    expect(toA).toHaveLength(1);
    expect(toA[0]!.raw).toMatch(new RegExp(`Subject: Certificate ${c.number} approved`));
    expect(toA[0]!.raw).toContain('From: Corridor <alerts@corridor.test>');
    const posted = hooksAbout('certificateApproved', c.id);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      userId: testUsers.companyA.userId,
      notification: { type: 'certificateApproved', entityType: 'single_use_certificate', companyId: 101 },
    });
    // night: mail to their own address; their webhook receiver fails (recorded, counted, the decision stood)
    expect(mailsAbout(c.number, 'night-desk@company-a.test')).toHaveLength(1);
    // agentA turned approved mail off: nothing; company B's user is not addressed
    expect(mailsAbout(c.number, testUsers.agentA.email)).toEqual([]);
    expect(mailsAbout(c.number, testUsers.companyB.email)).toEqual([]);

    const notice = await noticeAbout('certificateApproved', c.id);
    expect(await recordsOf(notice.id)).toEqual([
      { userId: testUsers.companyA.userId, channel: 'mail', status: 'sent' },
      { userId: testUsers.companyA.userId, channel: 'webhook', status: 'sent' },
      { userId: night.userId, channel: 'mail', status: 'sent' },
      { userId: night.userId, channel: 'webhook', status: 'failed' },
    ]);

    // a retried approval is refused and makes no notice; a notice looked at again (another instance, a crash before it was marked) sends nothing twice
    const retried = await h.call(testUsers.officer, 'POST', `/api/single-use-certificates/${c.id}/approve`);
    expect(retried.statusCode).toBe(409);
    await h.adapters.db.orm.update(notifications).set({ deliveryPending: true }).where(eq(notifications.id, notice.id));
    await h.svc.tracking.notices.check();
    await h.svc.tracking.notices.check();
    expect(mailsAbout(c.number, testUsers.companyA.email)).toHaveLength(1);
    expect(hooksAbout('certificateApproved', c.id)).toHaveLength(1);
    expect(await deliveriesOf(notice.id)).toHaveLength(4);
  });

  it('a notice to a role reaches its holders who turned the channel on (the application, to the association officers)', async () => {
    const c = await submittedCertificate(); // applied for: certificateApplied to association_officer
    await h.svc.tracking.notices.check();
    const applied = mails.filter((m) => m.raw.includes(`Certificate ${c.number} applied for`));
    // the officer turned it on; the applicant's company users are not addressed (agentA's switch does not matter)
    expect(applied.map((m) => m.to)).toEqual([testUsers.officer.email]);
  });

  it('runs by itself once started (NOTICE_DELIVERY_CHECK_MS), as ops-api starts it', async () => {
    const c = await submittedCertificate();
    h.svc.tracking.notices.start(20);
    try {
      expect((await h.call(testUsers.officer, 'POST', `/api/single-use-certificates/${c.id}/approve`)).statusCode).toBe(200);
      await eventually('the approval mail', () => mailsAbout(c.number, testUsers.companyA.email).length > 0);
    } finally {
      await h.svc.tracking.notices.stop();
    }
    expect(mailsAbout(c.number, testUsers.companyA.email)).toHaveLength(1);
  });

  it('a complaint reaches the officers who asked for complaintFiled, and its decision the filer if they asked, no one else', async () => {
    await settings(testUsers.officer, { channels: { complaintFiled: on(true, false) } });
    await settings(testUsers.analyst, { channels: { complaintFiled: on(true, false) } }); // another association role: not addressed
    await settings(testUsers.companyB, { channels: { complaintStatusChanged: on(true, true) }, webhookUrl: hookUrl });
    await settings(clerkB, { channels: { complaintStatusChanged: on(true, false) } });
    await settings(clerkB, { channels: { complaintStatusChanged: on(false, false) } }); // turned it off again
    await settings(testUsers.companyA, { channels: { complaintFiled: on(true, true), complaintStatusChanged: on(true, true) } }); // the company complained against
    const file = async (by: Identity, title: string): Promise<Complaint> => {
      const res = await h.call(by, 'POST', '/api/complaints', {
        subjectType: 'company',
        subjectRef: '101',
        companyId: 101,
        category: 'delay',
        title,
        description: 'Delivered four days after the agreed date.',
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Complaint>();
    };
    const byB = await file(testUsers.companyB, 'Late delivery at Malaba');
    const byClerk = await file(clerkB, 'Seal broken before Busia');
    for (const c of [byB, byClerk]) {
      const res = await h.call(testUsers.officer, 'PUT', `/api/complaints/${c.id}/status`, { status: 'under_review' });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(mailsTitled('Your complaint is now: Under review', byB.title)).toEqual([]); // not in the decision's request
    await h.svc.tracking.notices.check();

    // filed: to the association officers (role), by mail as the officer asked; not the analyst, not the company complained against
    expect(mailsTitled('A complaint was filed', `Delay: ${byB.title}`)).toEqual([testUsers.officer.email]);
    expect(mailsTitled('A complaint was filed', `Delay: ${byClerk.title}`)).toEqual([testUsers.officer.email]);
    expect(await recordsOf((await noticeAbout('complaintFiled', byB.id)).id)).toEqual([
      { userId: testUsers.officer.userId, channel: 'mail', status: 'sent' },
    ]);
    expect(hooksAbout('complaintFiled', byB.id)).toEqual([]);
    // the decision: to its filer only; company B's user asked for mail and webhook, the clerk turned both off
    expect(mailsTitled('Your complaint is now: Under review', byB.title)).toEqual([testUsers.companyB.email]);
    expect(hooksAbout('complaintStatusChanged', byB.id)).toEqual([
      expect.objectContaining({
        userId: testUsers.companyB.userId,
        notification: expect.objectContaining({ entityType: 'complaint', companyId: 101 }),
      }),
    ]);
    expect(await recordsOf((await noticeAbout('complaintStatusChanged', byB.id)).id)).toEqual([
      { userId: testUsers.companyB.userId, channel: 'mail', status: 'sent' },
      { userId: testUsers.companyB.userId, channel: 'webhook', status: 'sent' },
    ]);
    expect(mailsTitled('Your complaint is now: Under review', byClerk.title)).toEqual([]);
    expect(hooksAbout('complaintStatusChanged', byClerk.id)).toEqual([]);
    expect(await recordsOf((await noticeAbout('complaintStatusChanged', byClerk.id)).id)).toEqual([]);
  });

  it("a sanction reaches the sanctioned company's users who asked for sanctionRecorded, not those who turned it off, not another company's", async () => {
    await settings(testUsers.companyA, { channels: { sanctionRecorded: on(true, true) } });
    await settings(night, { channels: { sanctionRecorded: on(true, false) } });
    await settings(testUsers.agentA, { channels: { sanctionRecorded: on(true, true) }, webhookUrl: hookUrl });
    await settings(testUsers.agentA, { channels: { sanctionRecorded: on(true, false) } }); // turned it off again
    await settings(testUsers.agentA, { channels: { sanctionRecorded: on(false, false) } });
    await settings(testUsers.companyB, { channels: { sanctionRecorded: on(true, true) } });
    const r = await sanctionDelivered('warning', 'Late deliveries after warnings');

    const notice = await noticeAbout('sanctionRecorded', r.id);
    expect(
      mailsNaming('Pwani Freight Movers Ltd: Late deliveries after warnings')
        .map((m) => m.to)
        .sort(),
    ).toEqual([testUsers.companyA.email, 'night-desk@company-a.test'].sort());
    expect(hooksAbout('sanctionRecorded', r.id)).toEqual([
      expect.objectContaining({
        userId: testUsers.companyA.userId,
        notification: expect.objectContaining({ entityType: 'disciplinary_record', companyId: 101 }),
      }),
    ]);
    expect(await recordsOf(notice.id)).toEqual([
      { userId: testUsers.companyA.userId, channel: 'mail', status: 'sent' },
      { userId: testUsers.companyA.userId, channel: 'webhook', status: 'sent' },
      { userId: night.userId, channel: 'mail', status: 'sent' }, // mail only: night's webhook is off for sanctions
    ]);
  });

  it("each user reads the same notice in their own language, with the company's name and no id: mail and webhook (a Swahili and an English reader)", async () => {
    await settings(testUsers.companyA, { channels: { sanctionRecorded: on(true, true) }, webhookUrl: hookUrl });
    await settings(mwajuma, { channels: { sanctionRecorded: on(true, true) }, webhookUrl: hookUrl });
    const r = await sanctionDelivered('suspension', 'Tracker switched off on the Northern Corridor');
    const mailTo = (address: string) => {
      const found = mailsNaming('Tracker switched off on the Northern Corridor').filter((m) => m.to === address);
      expect(found).toHaveLength(1);
      return unwrapped(found[0]!.raw);
    };

    const sw = mailTo(mwajuma.email);
    expect(sw).toContain('Subject: Adhabu imerekodiwa: Kusimamishwa');
    expect(sw).toContain('Pwani Freight Movers Ltd: Tracker switched off on the Northern Corridor');
    const en = mailTo(testUsers.companyA.email);
    expect(en).toContain('Subject: Sanction recorded: Suspension');
    expect(en).toContain('Pwani Freight Movers Ltd: Tracker switched off on the Northern Corridor');
    for (const text of [sw, en]) expect(text).not.toMatch(/company 101|Sanction recorded: suspension\b/);

    const posted = hooksAbout('sanctionRecorded', r.id);
    const hookOf = (userId: number) => posted.find((x) => x.userId === userId)?.notification;
    expect(hookOf(mwajuma.userId)).toMatchObject({
      type: 'sanctionRecorded',
      title: 'Adhabu imerekodiwa: Kusimamishwa',
      message: 'Pwani Freight Movers Ltd: Tracker switched off on the Northern Corridor',
      companyId: 101,
    });
    expect(hookOf(testUsers.companyA.userId)).toMatchObject({
      title: 'Sanction recorded: Suspension',
      message: 'Pwani Freight Movers Ltd: Tracker switched off on the Northern Corridor',
    });
    // the inbox keeps the stored text and parameters: the console words it from them in its reader's language
    const notice = await noticeAbout('sanctionRecorded', r.id);
    expect(notice.attributes).toMatchObject({ sanctionType: 'suspension', subjectName: 'Pwani Freight Movers Ltd' });
  });

  it('a notification address is used only once verified by its link: a pending one gets nothing, a new save of it mails no second link, the verified address cancels it, a stale link is refused (issue 23)', async () => {
    const who = planner;
    const linksTo = (address: string) =>
      mails.filter((m) => m.to === address && m.raw.includes('Subject: Confirm your notification address'));
    const verify = (token: string | undefined) =>
      h.svc.app.inject({ method: 'POST', url: '/api/settings/notification/email/verify', payload: { token } });
    await settings(who, { channels: { sanctionRecorded: on(true, false) }, email: 'planner-desk@company-a.test' });
    await settings(who, { email: 'planner-desk@company-a.test' }); // saved again, its link still valid: no second mail
    expect(linksTo('planner-desk@company-a.test')).toHaveLength(1);
    // a sanction of their company meanwhile: mailed to their account email, not to the address waiting for its link
    await sanctionDelivered('warning', 'Seal left open at Malaba');
    const sanctionMails = mailsNaming('Seal left open at Malaba').map((m) => m.to);
    expect(sanctionMails).toContain(who.email);
    expect(sanctionMails).not.toContain('planner-desk@company-a.test');
    // the verified address (none yet: the account's) again, or null, cancels the pending one: its link is refused
    const first = linkToken(linksTo('planner-desk@company-a.test')[0]!.raw);
    const cancelled = await h.call(who, 'PUT', '/api/settings/notification', { email: null });
    expect(cancelled.json()).toMatchObject({ email: null, pendingEmail: null });
    expect((await verify(first)).statusCode).toBe(400);
    // an expired link is refused, and the address stays pending
    await settings(who, { email: 'planner-desk@company-a.test' });
    const second = linkToken(linksTo('planner-desk@company-a.test')[1]!.raw);
    await h.adapters.db.orm
      .update(notificationSettings)
      .set({ pendingEmailExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(notificationSettings.userId, who.userId));
    expect((await verify(second)).statusCode).toBe(400);
    expect((await h.call(who, 'GET', '/api/settings/notification')).json()).toMatchObject({
      email: null,
      pendingEmail: 'planner-desk@company-a.test',
    });
    // saved again after it expired: a new link, which verifies
    await settings(who, { email: 'planner-desk@company-a.test' });
    expect((await verify(linkToken(linksTo('planner-desk@company-a.test')[2]!.raw))).statusCode).toBe(200);
    expect((await h.call(who, 'GET', '/api/settings/notification')).json()).toMatchObject({
      email: 'planner-desk@company-a.test',
      pendingEmail: null,
    });
    // at most 5 links a day: the server cannot be made to mail anyone at will
    for (const n of [1, 2]) await settings(who, { email: `other-${n}@company-a.test` });
    const throttled = await h.call(who, 'PUT', '/api/settings/notification', { email: 'other-3@company-a.test' });
    expect(throttled.statusCode, throttled.body).toBe(429);
    expect(linksTo('other-3@company-a.test')).toEqual([]);
    expect((await h.call(who, 'GET', '/api/settings/notification')).json()).toMatchObject({
      email: 'planner-desk@company-a.test',
      pendingEmail: 'other-2@company-a.test',
    });
  });
});
