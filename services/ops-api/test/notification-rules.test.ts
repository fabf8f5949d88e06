import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommandMessage,
  EventMessage,
  Topics,
  WebNotificationMessage,
  type Device,
  type NotificationDelivery,
  type NotificationEmailVerified,
  type NotificationLink,
  type NotificationSettings,
  type NotificationRule,
} from '@corridor/contracts';
import { eventNumericId, type ConsumedMessage, type Subscription } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { parseOutboundAllowList } from '../src/notification-rules/outbound-address';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { linkToken, startSmtpServer } from './smtp-server';
import { startWebhookReceiver } from './webhook-receiver';
import { expect400, expectError } from './tracking-expect';
import { eventually } from '@corridor/platform/testing/eventually';

/**
 * Notification rules end to end: a matching event on events.v1 reaches the rule's recipients by
 * email (a local SMTP server started here) and its webhook (a local HTTP listener), once.
 */
interface Mail {
  to: string;
  raw: string;
}
const mails: Mail[] = [];
const hooks: { body: Record<string, unknown> }[] = [];
let failNextHooks = 0;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let http: Awaited<ReturnType<typeof startWebhookReceiver>>;
let hookUrl = '';
let h: Harness;
let truckA: Device;
let truckB: Device;

beforeAll(async () => {
  smtp = await startSmtpServer((to, raw) => to.forEach((address) => mails.push({ to: address, raw })));
  http = await startWebhookReceiver((body) => {
    if (failNextHooks > 0) {
      failNextHooks--;
      return 503;
    }
    hooks.push({ body });
    return 204;
  });
  hookUrl = `${http.url}/hooks/corridor`;
  h = await startHarness({
    notificationRules: {
      smtpUrl: smtp.url,
      mailFrom: 'Corridor <alerts@corridor.test>',
      webhookAttempts: 3,
      webhookTimeoutMs: 2000,
      webhookBackoffMs: 50,
      webhookPolicy: parseOutboundAllowList('127.0.0.1'), // the local listener: an internal receiver on the allow-list
    },
  });
  truckA = (
    await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'KCA 555X', uniqueId: '866000000000001', companyId: 101 })
  ).json<Device>();
  truckB = (
    await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'T 555 XYZ', uniqueId: '866000000000002', companyId: 202 })
  ).json<Device>();
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
  await http?.close();
});

let seq = 0;
const event = (d: Device, type: string, at: string, attributes: Record<string, unknown> = {}) =>
  EventMessage.parse({
    id: `${d.id}-${type}-${Date.parse(at)}-${++seq}`,
    type,
    eventTime: at,
    deviceId: d.id,
    latitude: -3.9,
    longitude: 39.7,
    attributes,
  });
const mailsFor = (eventId: string) => mails.filter((m) => m.raw.includes(eventId));
const hooksFor = (eventId: string) => hooks.filter((x) => (x.body.event as { id?: string } | undefined)?.id === eventId);
async function rule(body: Record<string, unknown>, by = dispatcherOf(101)): Promise<NotificationRule> {
  const res = await h.call(by, 'POST', '/api/notifications', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<NotificationRule>();
}
const desk = { userId: 5, email: 'desk@company-a.test' };

describe('notification rules', () => {
  it('mails the recipients and posts the webhook for a matching alarm, once per event', async () => {
    const r = await rule({
      type: 'alarm',
      alarms: ['sos'],
      always: true,
      notificators: ['mail', 'webhook', 'web'],
      recipients: [desk],
      webhookUrl: hookUrl,
      description: 'SOS',
    });
    const sos = event(truckA, 'alarm', '2026-05-04T10:00:00Z', { alarm: 'sos' });
    await h.svc.tracking.dispatcher.onEvents([sos]);
    expect(mailsFor(sos.id)).toHaveLength(1);
    const mail = mailsFor(sos.id)[0]!;
    expect(mail.to).toBe('desk@company-a.test');
    expect(mail.raw).toMatch(/Subject: alarm \(sos\): KCA 555X/);
    expect(mail.raw).toContain('From: Corridor <alerts@corridor.test>');
    expect(hooksFor(sos.id)).toHaveLength(1);
    expect(hooksFor(sos.id)[0]!.body).toMatchObject({ device: { id: truckA.id, name: 'KCA 555X' }, rule: { id: r.id, type: 'alarm' } });

    // the web channel: a notice in the recipient's inbox
    const webFor = async (eventId: string) =>
      (await h.call(testUsers.companyA, 'GET', '/api/inbox?type=deviceEvent&limit=1000'))
        .json<{ items: { title: string; entityId: string }[] }>()
        .items.filter((n) => n.entityId === eventId);
    expect((await webFor(sos.id)).map((n) => n.title)).toEqual(['alarm (sos): KCA 555X']);

    await h.svc.tracking.dispatcher.onEvents([sos]); // redelivered by the bus: nothing new
    expect(mailsFor(sos.id)).toHaveLength(1);
    expect(hooksFor(sos.id)).toHaveLength(1);
    expect(await webFor(sos.id)).toHaveLength(1);
  });

  it("leaves alone what the rule does not cover: other alarms, other types, other companies' devices", async () => {
    await rule({ type: 'alarm', alarms: ['powerCut'], always: false, deviceIds: [truckA.id], notificators: ['mail'], recipients: [desk] });
    const events = [
      event(truckA, 'alarm', '2026-05-04T11:00:00Z', { alarm: 'lowBattery' }),
      event(truckA, 'ignitionOn', '2026-05-04T11:00:00Z'),
      event(truckB, 'alarm', '2026-05-04T11:00:00Z', { alarm: 'sos,powerCut' }),
    ];
    await h.svc.tracking.dispatcher.onEvents(events);
    for (const e of events) {
      expect(mailsFor(e.id)).toEqual([]);
      expect(hooksFor(e.id)).toEqual([]);
    }
    const both = event(truckA, 'alarm', '2026-05-04T11:30:00Z', { alarm: 'powerCut,sos' });
    await h.svc.tracking.dispatcher.onEvents([both]);
    expect(mailsFor(both.id)).toHaveLength(2); // the SOS rule and the powerCut rule
  });

  it('retries a failing webhook and records each delivery', async () => {
    await rule({ type: 'geofenceExit', always: true, notificators: ['webhook'], webhookUrl: hookUrl });
    failNextHooks = 2;
    const exit = event(truckA, 'geofenceExit', '2026-05-04T12:00:00Z');
    await h.svc.tracking.dispatcher.onEvents([exit]);
    expect(hooksFor(exit.id)).toHaveLength(1);
    const rows = await h.adapters.db.rows<{ channel: string; status: string; attempts: number }>(
      (await import('drizzle-orm')).sql`select channel, status, attempts from ops.notification_deliveries where event_id = ${exit.id}`,
    );
    expect(rows).toEqual([{ channel: 'webhook', status: 'sent', attempts: 3 }]);
  });

  it("honours the rule's calendar (weekday day shift only)", async () => {
    const ics = Buffer.from(
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corridor//test//EN\r\nBEGIN:VEVENT\r\nUID:shift\r\nDTSTART:20260105T050000Z\r\n' +
        'DTEND:20260105T150000Z\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
    ).toString('base64');
    const cal = (await h.call(dispatcherOf(101), 'POST', '/api/calendars', { name: 'Day shift', data: ics })).json<{ id: number }>();
    await rule({ type: 'deviceOverspeed', always: true, notificators: ['mail'], recipients: [desk], calendarId: cal.id });
    const saturday = event(truckA, 'deviceOverspeed', '2026-05-09T10:00:00Z');
    const mondayNight = event(truckA, 'deviceOverspeed', '2026-05-11T20:00:00Z');
    const mondayNoon = event(truckA, 'deviceOverspeed', '2026-05-11T12:00:00Z');
    await h.svc.tracking.dispatcher.onEvents([saturday, mondayNight, mondayNoon]);
    expect(mailsFor(saturday.id)).toEqual([]);
    expect(mailsFor(mondayNight.id)).toEqual([]);
    expect(mailsFor(mondayNoon.id)).toHaveLength(1);
    expectError(await h.call(dispatcherOf(101), 'DELETE', `/api/calendars/${cal.id}`), 409, 'CONFLICT');
  });

  it('notifies from events.v1 through the consumer, once however often the event is redelivered', async () => {
    await rule({ type: 'ignitionOff', always: true, notificators: ['mail', 'webhook'], recipients: [desk], webhookUrl: hookUrl });
    await h.svc.start();
    const off = event(truckA, 'ignitionOff', '2026-05-04T18:00:00Z');
    // the consumer group starts at the latest offset once it has joined: publish until it has
    await eventually(
      'the consumer to take the event (published again until it has joined)',
      async () => {
        if (!mailsFor(off.id).length) await h.adapters.bus.publish(Topics.events, [{ key: String(off.deviceId), value: off }]);
        return mailsFor(off.id).length > 0;
      },
      { everyMs: 500 },
    );
    await eventually('the email and the webhook', () => mailsFor(off.id).length > 0 && hooksFor(off.id).length > 0);
    await h.adapters.bus.publish(Topics.events, [{ key: String(off.deviceId), value: off }]);
    // a marker: another event of the truck after the redelivery; once it is notified, the redelivery was handled
    const marker = event(truckA, 'ignitionOff', '2026-05-04T19:00:00Z');
    await h.adapters.bus.publish(Topics.events, [{ key: String(marker.deviceId), value: marker }]);
    await eventually("the marker's email and webhook", () => mailsFor(marker.id).length > 0 && hooksFor(marker.id).length > 0);
    expect(mailsFor(off.id)).toHaveLength(1);
    expect(hooksFor(off.id)).toHaveLength(1);
  });

  it('sends a test through every channel of a rule', async () => {
    const r = await rule({
      type: 'alarm',
      always: true,
      notificators: ['mail', 'webhook', 'web'],
      recipients: [desk, { userId: 9, email: 'night@company-a.test' }],
      webhookUrl: hookUrl,
    });
    const before = mails.length;
    const hooksBefore = hooks.length;
    const res = await h.call(dispatcherOf(101), 'POST', '/api/notifications/test', { ruleId: r.id });
    expect(res.statusCode, res.body).toBe(204); // Traccar's answer: every delivery went out
    expect(hooks.slice(hooksBefore).map((x) => x.body.test)).toEqual([true]);
    expect(
      mails
        .slice(before)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['desk@company-a.test', 'night@company-a.test']);
    expect(mails.slice(before)[0]!.raw).toContain('Test notification');
    expectError(await h.call(dispatcherOf(202), 'POST', '/api/notifications/test', { ruleId: r.id }), 404, 'NOT_FOUND');
    expect400(await h.call(dispatcherOf(101), 'POST', '/api/notifications/test', {}), 'ruleId');
  });

  it('refuses internal webhook addresses on save, and the test send tells only delivered or not (no port scanning)', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.0.0.7:6379/', 'http://[::1]:5432/', 'http://0x7f000002/']) {
      expect400(
        await h.call(dispatcherOf(101), 'POST', '/api/notifications', {
          type: 'alarm',
          always: true,
          notificators: ['webhook'],
          webhookUrl: url,
        }),
        'webhookUrl',
      );
    }
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    // a closed port and a receiver answering 503 look alike (a name resolving to a refused address: outbound-address.test.ts)
    const targets = [`http://127.0.0.1:${closedPort}/`, hookUrl];
    const answers: unknown[] = [];
    for (const [i, webhookUrl] of targets.entries()) {
      const r = await rule({ type: 'alarm', always: true, notificators: ['webhook'], webhookUrl });
      if (i === 1) failNextHooks = 1;
      const res = await h.call(dispatcherOf(101), 'POST', '/api/notifications/test', { ruleId: r.id });
      expectError(res, 400, 'NOT_DELIVERED');
      const [d] = res.json<{ error: { details: { deliveries: NotificationDelivery[] } } }>().error.details.deliveries;
      answers.push({ status: d!.status, attempts: d!.attempts, error: d!.error });
    }
    expect(failNextHooks).toBe(0);
    expect(answers).toEqual(targets.map(() => ({ status: 'failed', attempts: 1, error: 'not delivered' })));
  });

  it('lists event types and the channels this server has', async () => {
    const types = (await h.call(testUsers.companyA, 'GET', '/api/notifications/types')).json<{ type: string }[]>().map((t) => t.type);
    expect(types).toEqual(expect.arrayContaining(['alarm', 'geofenceEnter', 'geofenceExit', 'deviceOverspeed', 'ignitionOn']));
    expect((await h.call(testUsers.companyA, 'GET', '/api/notifications/notificators')).json()).toEqual([
      { type: 'web' },
      { type: 'mail' },
      { type: 'webhook' },
      { type: 'command' },
    ]);
    expect((await h.call(testUsers.companyA, 'GET', '/api/notifications/notificators?announcement=true')).json()).toEqual([
      { type: 'web' },
      { type: 'mail' },
    ]);
  });

  it("validates rules against the company's devices and calendars", async () => {
    // another company's device, calendar or user answers like an unknown one
    expectError(
      await h.call(dispatcherOf(101), 'POST', '/api/notifications', {
        type: 'alarm',
        deviceIds: [truckB.id],
        notificators: ['web'],
        recipients: [desk],
      }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await h.call(dispatcherOf(101), 'POST', '/api/notifications', {
        type: 'alarm',
        always: true,
        notificators: ['web'],
        recipients: [{ userId: testUsers.companyB.userId, email: 'b@company-b.test' }],
      }),
      404,
      'NOT_FOUND',
    );
    expect400(
      await h.call(dispatcherOf(101), 'POST', '/api/notifications', {
        type: 'ignitionOn',
        alarms: ['sos'],
        always: true,
        notificators: ['web'],
        recipients: [desk],
      }),
      'alarms',
    );
    expect400(
      await h.call(dispatcherOf(101), 'POST', '/api/notifications', {
        type: 'alarm',
        always: true,
        notificators: ['webhook'],
        webhookUrl: 'ftp://x',
      }),
      'webhookUrl',
    );
    expect400(
      await h.call(dispatcherOf(101), 'POST', '/api/notifications', {
        type: 'alarm',
        always: true,
        notificators: ['mail'],
        recipients: [{ userId: 1, email: 'nope' }],
      }),
      'recipients.0.email',
    );
    expectError(
      await h.call(dispatcherOf(101), 'POST', '/api/notifications', {
        type: 'alarm',
        always: true,
        notificators: ['web'],
        recipients: [desk],
        calendarId: 999999,
      }),
      404,
      'NOT_FOUND',
    );
    const listed = (await h.call(dispatcherOf(101), 'GET', `/api/notifications?deviceId=${truckA.id}&type=alarm`)).json<
      NotificationRule[]
    >();
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((r) => r.type === 'alarm' && (r.always || r.deviceIds.includes(truckA.id)))).toBe(true);
    expect((await h.call(testUsers.companyB, 'GET', '/api/notifications')).json()).toEqual([]);
  });
});

describe("Traccar's NotificationResource", () => {
  it("takes and answers rules in Traccar's shape, linked to their creator, and lists them as an array with Traccar's filters", async () => {
    const by = dispatcherOf(101);
    const res = await h.call(by, 'POST', '/api/notifications', {
      type: 'alarm',
      always: true,
      notificators: 'web,mail',
      attributes: { alarms: 'sos,powerCut' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<NotificationRule>();
    expect(created).toMatchObject({
      type: 'alarm',
      always: true,
      notificators: 'web,mail',
      attributes: { alarms: 'sos,powerCut' },
      alarms: ['sos', 'powerCut'],
      calendarId: 0,
      commandId: 0,
      recipients: [{ userId: by.userId, email: by.email }],
    });
    // a Traccar client sends back what it read, with its change in attributes.alarms
    const changed = (
      await h.call(by, 'PUT', `/api/notifications/${created.id}`, { ...created, attributes: { alarms: 'sos' } })
    ).json<NotificationRule>();
    expect(changed).toMatchObject({ alarms: ['sos'], attributes: { alarms: 'sos' }, notificators: 'web,mail' });
    expect400(
      await h.call(by, 'POST', '/api/notifications', {
        type: 'alarm',
        always: true,
        notificators: 'web',
        attributes: { alarms: 'sos,nonsense' },
      }),
      'attributes.alarms',
    );
    expect400(await h.call(by, 'POST', '/api/notifications', { type: 'alarm', always: true, notificators: 'web,sms' }), 'notificators');

    const list = await h.call(by, 'GET', '/api/notifications?all=true&refresh=true');
    expect(list.statusCode, list.body).toBe(200);
    expect(Array.isArray(list.json())).toBe(true);
    expect(list.json<NotificationRule[]>().map((r) => r.id)).toContain(created.id);
    const mine = (await h.call(by, 'GET', `/api/notifications?userId=${by.userId}`)).json<NotificationRule[]>();
    expect(mine.map((r) => r.id)).toContain(created.id);
    expect(mine.every((r) => r.recipients.some((x) => x.userId === by.userId))).toBe(true);

    // groupId: rules covering a device of that group
    const group = (await h.call(by, 'POST', '/api/groups', { name: 'Coast fleet' })).json<{ id: number }>();
    const inGroup = (
      await h.call(by, 'POST', '/api/devices', { name: 'KCB 101G', uniqueId: '866000000000101', groupId: group.id })
    ).json<Device>();
    const forGroup = await rule({ type: 'ignitionOn', deviceIds: [inGroup.id], notificators: ['web'], recipients: [desk] });
    const forOther = await rule({ type: 'ignitionOn', deviceIds: [truckA.id], notificators: ['web'], recipients: [desk] });
    const byGroup = (await h.call(by, 'GET', `/api/notifications?groupId=${group.id}&type=ignitionOn`))
      .json<NotificationRule[]>()
      .map((r) => r.id);
    expect(byGroup).toContain(forGroup.id);
    expect(byGroup).not.toContain(forOther.id);
    // another company's group, user or rule answers like an unknown one
    expectError(await h.call(dispatcherOf(202), 'GET', `/api/notifications?groupId=${group.id}`), 404, 'NOT_FOUND');
    expectError(await h.call(dispatcherOf(202), 'GET', `/api/notifications?userId=${by.userId}`), 404, 'NOT_FOUND');
    expectError(await h.call(dispatcherOf(202), 'GET', `/api/notifications/${created.id}`), 404, 'NOT_FOUND');
    expectError(await h.call(dispatcherOf(202), 'DELETE', `/api/notifications/${created.id}`), 404, 'NOT_FOUND');
    expect((await h.call(by, 'DELETE', `/api/notifications/${created.id}`)).statusCode).toBe(204);
    expectError(await h.call(by, 'GET', `/api/notifications/${created.id}`), 404, 'NOT_FOUND');
  });

  it('sends a test to the caller through every channel they can receive: inbox, mail, their webhook', async () => {
    const user = testUsers.companyA;
    const inboxOf = async (type: string) =>
      (await h.call(user, 'GET', `/api/inbox?type=${type}`)).json<{ items: { title: string; message: string }[] }>().items;
    const before = (await inboxOf('notificationTest')).length;
    const mailsBefore = mails.length;
    const res = await h.call(user, 'POST', '/api/notifications/test');
    expect(res.statusCode, res.body).toBe(204);
    expect(await inboxOf('notificationTest')).toHaveLength(before + 1);
    expect(mails.slice(mailsBefore).map((m) => m.to)).toEqual([user.email]);
    expectError(await h.call(user, 'POST', '/api/notifications/test/webhook'), 400, 'VALIDATION_FAILED'); // no webhookUrl of theirs yet

    // their own settings: a notification email and a webhook. The address is used once verified by the link mailed to it (issue 23)
    const linksBefore = mails.length;
    const saved = await h.call(user, 'PUT', '/api/settings/notification', { email: 'alerts@company-a.test', webhookUrl: hookUrl });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<NotificationSettings>()).toMatchObject({ email: null, pendingEmail: 'alerts@company-a.test' });
    const link = mails.slice(linksBefore);
    expect(link.map((m) => m.to)).toEqual(['alerts@company-a.test']);
    expect(link[0]!.raw).toContain('Subject: Confirm your notification address');
    // before it is opened, a test goes to the account email, never to the address typed in
    const mailsUnverified = mails.length;
    expect((await h.call(user, 'POST', '/api/notifications/test/mail')).statusCode).toBe(204);
    expect(mails.slice(mailsUnverified).map((m) => m.to)).toEqual([user.email]);
    expect(mails.filter((m) => m.to === 'alerts@company-a.test')).toHaveLength(1); // the link only
    const token = linkToken(link[0]!.raw)!;
    expect(token).toMatch(/^[\w-]{43}$/);
    const verify = (t: string) =>
      h.svc.app.inject({ method: 'POST', url: '/api/settings/notification/email/verify', payload: { token: t } });
    expect400(await verify('x'.repeat(43)), 'token');
    const verified = await verify(token);
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json<NotificationEmailVerified>()).toEqual({ email: 'alerts@company-a.test' });
    expect400(await verify(token), 'token'); // once
    expect((await h.call(user, 'GET', '/api/settings/notification')).json<NotificationSettings>()).toMatchObject({
      email: 'alerts@company-a.test',
      pendingEmail: null,
    });
    const hooksBefore = hooks.length;
    const inboxBefore = (await inboxOf('notificationTest')).length;
    const mailsToSettings = mails.length;
    expect((await h.call(user, 'POST', '/api/notifications/test')).statusCode).toBe(204);
    expect(await inboxOf('notificationTest')).toHaveLength(inboxBefore + 1);
    expect(mails.slice(mailsToSettings).map((m) => m.to)).toEqual(['alerts@company-a.test']);
    expect(hooks.slice(hooksBefore).map((x) => x.body.test)).toEqual([true]);
    const mailsBeforeOne = mails.length;
    expect((await h.call(user, 'POST', '/api/notifications/test/mail')).statusCode).toBe(204);
    expect(mails.length).toBe(mailsBeforeOne + 1);
    expect(hooks.length).toBe(hooksBefore + 1);

    // a failing receiver of the caller's own: tried once, and the answer tells only "not delivered"
    failNextHooks = 1;
    const failed = await h.call(user, 'POST', '/api/notifications/test/webhook');
    expectError(failed, 400, 'NOT_DELIVERED');
    expect(failed.json<{ error: { details: unknown } }>().error.details).toEqual({
      deliveries: [{ channel: 'webhook', recipient: hookUrl, status: 'failed', attempts: 1, error: 'not delivered' }],
    });
    expect(failNextHooks).toBe(0);
    expect400(await h.call(user, 'POST', '/api/notifications/test/sms'), 'notificator');
    // a rule's test stays for those who write rules
    const r = await rule({ type: 'alarm', always: true, notificators: ['web'], recipients: [desk] });
    expectError(await h.call(user, 'POST', '/api/notifications/test', { ruleId: r.id }), 403, 'FORBIDDEN');
  });

  it('lets an administrator send a message to users through the inbox or by mail, audited', async () => {
    const inboxOf = async (who: typeof testUsers.companyA) =>
      (await h.call(who, 'GET', '/api/inbox?type=announcement')).json<{ items: { title: string; message: string }[] }>().items;
    const msg = { subject: 'Border closed', body: 'Namanga is closed until 18:00.' };
    const res = await h.call(testUsers.admin, 'POST', `/api/notifications/send/web?userId=${testUsers.companyA.userId}&userId=9`, msg);
    expect(res.statusCode, res.body).toBe(204);
    expect((await inboxOf(testUsers.companyA))[0]).toMatchObject({ title: 'Border closed', message: 'Namanga is closed until 18:00.' });
    expect(await inboxOf(testUsers.companyB)).toEqual([]);

    const mailsBefore = mails.length;
    expect(
      (await h.call(testUsers.admin, 'POST', '/api/notifications/send/mail?userId=9', { digest: 'Rain', body: 'Heavy rain on the A109.' }))
        .statusCode,
    ).toBe(204);
    expect(mails.slice(mailsBefore).map((m) => m.to)).toEqual(['night@company-a.test']);
    expect(mails.slice(mailsBefore)[0]!.raw).toMatch(/Subject: Rain/);

    expectError(await h.call(dispatcherOf(101), 'POST', '/api/notifications/send/web', msg), 403, 'FORBIDDEN');
    expect400(await h.call(testUsers.admin, 'POST', '/api/notifications/send/webhook', msg), 'notificator');
    expect400(await h.call(testUsers.admin, 'POST', '/api/notifications/send/web', { subject: 'x' }), 'body');
    const trail = await h.adapters.db.rows<{ action: string; entity_type: string }>(
      (await import('drizzle-orm')).sql`select action, entity_type from ops.audit_log where action = 'announcement.send'`,
    );
    expect(trail).toHaveLength(2);
  });
});

describe("a rule's links (Traccar permissions with notificationId) and its command channel", () => {
  const by = dispatcherOf(101);
  const links = (q: string) => h.call(by, 'GET', `/api/notifications/links?${q}`);
  const link = (body: NotificationLink[], who = by) => h.call(who, 'POST', '/api/notifications/links', body);
  const unlink = (body: NotificationLink[], who = by) => h.call(who, 'DELETE', '/api/notifications/links', body);
  const ids = async (q: string) => (await h.call(by, 'GET', `/api/notifications?${q}`)).json<NotificationRule[]>().map((r) => r.id);

  it('links users, devices and groups into the rule itself, which then notifies for them; unlinking stops it', async () => {
    const group = (await h.call(by, 'POST', '/api/groups', { name: 'Night fleet' })).json<{ id: number }>();
    const sub = (await h.call(by, 'POST', '/api/groups', { name: 'Night fleet, reefers', groupId: group.id })).json<{ id: number }>();
    const linked = (
      await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'KCB 101L', uniqueId: '866000000000011', companyId: 101 })
    ).json<Device>();
    const inGroup = (
      await h.call(testUsers.admin, 'POST', '/api/devices', {
        name: 'KCB 102R',
        uniqueId: '866000000000012',
        companyId: 101,
        groupId: sub.id,
      })
    ).json<Device>();
    const r = await rule({ type: 'deviceStopped', always: false, deviceIds: [truckA.id], notificators: ['mail'], recipients: [desk] });

    let res = await link([
      { notificationId: r.id, deviceId: linked.id },
      { notificationId: r.id, userId: 9 },
      { notificationId: r.id, groupId: group.id },
    ]);
    expect(res.statusCode, res.body).toBe(204);
    const stored = (await h.call(by, 'GET', `/api/notifications/${r.id}`)).json<NotificationRule>();
    expect(stored).toMatchObject({
      deviceIds: [truckA.id, linked.id],
      groupIds: [group.id],
      recipients: [desk, { userId: 9, email: 'night@company-a.test' }],
    });
    expect((await links(`notificationId=${r.id}&deviceId=0`)).json()).toEqual([
      { notificationId: r.id, deviceId: truckA.id },
      { notificationId: r.id, deviceId: linked.id },
    ]);
    expect((await links(`userId=9`)).json()).toContainEqual({ notificationId: r.id, userId: 9 });
    expect(await ids(`deviceId=${linked.id}`)).toContain(r.id);
    expect(await ids('userId=9')).toContain(r.id);
    expect(await ids(`groupId=${group.id}`)).toContain(r.id);

    // the linked device, and a device of a subgroup of the linked group, notify both recipients
    for (const d of [linked, inGroup]) {
      const e = event(d, 'deviceStopped', '2026-05-05T10:00:00Z');
      await h.svc.tracking.dispatcher.onEvents([e]);
      expect(
        mailsFor(e.id)
          .map((m) => m.to)
          .sort(),
      ).toEqual(['desk@company-a.test', 'night@company-a.test']);
    }

    // a link that exists, an absent one, a repeated item, a foreign device or rule: nothing changes
    expectError(
      await link([
        { notificationId: r.id, groupId: sub.id },
        { notificationId: r.id, deviceId: linked.id },
      ]),
      409,
      'CONFLICT',
    );
    expect((await h.call(by, 'GET', `/api/notifications/${r.id}`)).json<NotificationRule>().groupIds).toEqual([group.id]);
    expectError(await unlink([{ notificationId: r.id, deviceId: truckB.id }]), 404, 'NOT_FOUND');
    expectError(await link([{ notificationId: r.id, deviceId: truckB.id }]), 404, 'NOT_FOUND');
    const foreign = await rule(
      {
        type: 'deviceStopped',
        always: true,
        notificators: ['web'],
        recipients: [{ userId: dispatcherOf(202).userId, email: dispatcherOf(202).email }],
      },
      dispatcherOf(202),
    );
    expectError(await link([{ notificationId: foreign.id, deviceId: linked.id }]), 404, 'NOT_FOUND');
    expectError(
      await link([
        { notificationId: r.id, userId: 9 },
        { notificationId: r.id, userId: 9 },
      ]),
      400,
      'VALIDATION_FAILED',
    );
    expect((await link([{ notificationId: r.id, deviceId: linked.id, groupId: group.id } as NotificationLink])).statusCode).toBe(400);

    res = await unlink([
      { notificationId: r.id, deviceId: linked.id },
      { notificationId: r.id, groupId: group.id },
      { notificationId: r.id, userId: 9 },
    ]);
    expect(res.statusCode, res.body).toBe(204);
    expect((await h.call(by, 'GET', `/api/notifications/${r.id}`)).json<NotificationRule>()).toMatchObject({
      deviceIds: [truckA.id],
      groupIds: [],
      recipients: [desk],
    });
    const after = event(linked, 'deviceStopped', '2026-05-05T11:00:00Z');
    await h.svc.tracking.dispatcher.onEvents([after, event(inGroup, 'deviceStopped', '2026-05-05T11:00:00Z')]);
    expect(
      mails.filter(
        (m) =>
          m.raw.includes(`${linked.id}-deviceStopped-${Date.parse('2026-05-05T11:00:00Z')}`) ||
          m.raw.includes(`${inGroup.id}-deviceStopped-${Date.parse('2026-05-05T11:00:00Z')}`),
      ),
    ).toEqual([]);
    const trail = await h.adapters.db.rows<{ n: number }>(
      (await import('drizzle-orm'))
        .sql`select count(*)::int as n from ops.audit_log where action = 'notification_rule.update' and entity_id = ${String(r.id)}`,
    );
    expect(trail[0]!.n).toBe(2);
  });

  it("sends the rule's saved command to the event's device through the command channel, once per event", async () => {
    const received: CommandMessage[] = [];
    const sub: Subscription = await h.adapters.bus.subscribe({
      groupId: 'notification-commands-test',
      topics: [Topics.commands],
      fromBeginning: true,
      handler: async (msgs: ConsumedMessage[]) => {
        for (const m of msgs) received.push(CommandMessage.parse(JSON.parse(m.value)));
      },
    });
    try {
      const cmd = (await h.call(by, 'POST', '/api/commands', { description: 'Cut engine', type: 'engineStop' })).json<{ id: number }>();
      expect400(await h.call(by, 'POST', '/api/notifications', { type: 'alarm', always: true, notificators: ['command'] }), 'commandId');
      const foreignCmd = (
        await h.call(dispatcherOf(202), 'POST', '/api/commands', { description: 'B', type: 'custom', attributes: { data: 'X' } })
      ).json<{ id: number }>();
      expectError(
        await h.call(by, 'POST', '/api/notifications', {
          type: 'alarm',
          always: true,
          notificators: ['command'],
          commandId: foreignCmd.id,
        }),
        404,
        'NOT_FOUND',
      );
      const r = await rule({
        type: 'alarm',
        alarms: ['tampering'],
        always: false,
        deviceIds: [truckA.id],
        notificators: ['command'],
        commandId: cmd.id,
      });
      expect(r).toMatchObject({ notificators: 'command', commandId: cmd.id });
      const tamper = event(truckA, 'alarm', '2026-05-06T10:00:00Z', { alarm: 'tampering' });
      await h.svc.tracking.dispatcher.onEvents([tamper]);
      await h.svc.tracking.dispatcher.onEvents([tamper]); // redelivered: no second command
      await eventually('the command on commands.v1', () => received.some((c) => c.deviceId === truckA.id && c.type === 'engineStop'));
      const deliveries = await h.adapters.db.rows<{ channel: string; recipient: string; status: string }>(
        (await import('drizzle-orm'))
          .sql`select channel, recipient, status from ops.notification_deliveries where event_id = ${tamper.id} and rule_id = ${r.id}`,
      );
      expect(deliveries).toEqual([{ channel: 'command', recipient: `${cmd.id}@${truckA.id}`, status: 'sent' }]);
      expect(received.filter((c) => c.deviceId === truckA.id && c.type === 'engineStop')).toHaveLength(1);
    } finally {
      await sub.stop();
    }
  });

  it("sends an event through the web channel to each recipient's live feed, in Traccar's shape with a sentence in the recipient's language, once", async () => {
    const received: WebNotificationMessage[] = [];
    const sub: Subscription = await h.adapters.bus.subscribe({
      groupId: 'notification-web-test',
      topics: [Topics.webNotifications],
      fromBeginning: true,
      handler: async (msgs: ConsumedMessage[]) => {
        for (const m of msgs) received.push(WebNotificationMessage.parse(JSON.parse(m.value)));
      },
    });
    try {
      const night = { userId: 9, email: 'night@company-a.test' }; // language sw in the directory
      const r = await rule({
        type: 'ignitionOff',
        always: false,
        deviceIds: [truckA.id],
        notificators: ['web'],
        recipients: [desk, night],
      });
      await rule({ type: 'ignitionOff', always: false, deviceIds: [truckA.id], notificators: ['mail'], recipients: [desk] }); // no web channel: no live event
      const off = event(truckA, 'ignitionOff', '2026-05-07T10:00:00Z');
      await h.svc.tracking.dispatcher.onEvents([off]);
      await h.svc.tracking.dispatcher.onEvents([off]); // redelivered: nothing more
      const marker = event(truckA, 'ignitionOff', '2026-05-07T10:05:00Z');
      await h.svc.tracking.dispatcher.onEvents([marker]);
      await eventually(
        'the marker on notifications.web.v1 for both recipients',
        () => received.filter((m) => m.event.id === eventNumericId(marker.id)).length === 2,
      );
      const mine = received.filter((m) => m.event.id === eventNumericId(off.id));
      expect(mine.map((m) => [m.userId, m.ruleId, m.event.attributes.message]).sort()).toEqual([
        [5, r.id, 'KCA 555X: ignition off'],
        [9, r.id, 'KCA 555X: injini imezimwa'],
      ]);
      expect(mine[0]!.event).toMatchObject({
        type: 'ignitionOff',
        deviceId: truckA.id,
        positionId: 0,
        geofenceId: 0,
        maintenanceId: 0,
        eventTime: off.eventTime,
      });
    } finally {
      await sub.stop();
    }
  });
});
