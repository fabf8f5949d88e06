import { and, eq, inArray } from 'drizzle-orm';
import type { EventMessage, NotificationDelivery } from '@corridor/contracts';
import { counter, type Logger, type Orm } from '@corridor/platform';
import { calendars, devices, groups, notificationDeliveries, notificationRules, type NotificationRuleRow } from '../db/schema';
import { calendarActiveAt, parseCalendar } from '@corridor/platform/calendar/ical';
import type { CalendarSchedule } from '@corridor/platform/calendar/schedule';
import type { Notice } from '../notifications/service';
import type { MailChannel } from './mail-channel';
import { ruleMatches } from './matching';
import { eventMessage, type NotificationMessage } from './message';
import type { WebhookChannel } from './webhook-channel';
import type { WebPush } from './web-push';

const sent = counter('notifications_delivered_total', 'Notification deliveries by channel and outcome', ['channel', 'status']);

export interface SendResult {
  ok: boolean;
  attempts: number;
  /** Why not (for the log and the delivery record; a webhook's is never told to the caller: deliveryOf). */
  error: string | null;
}

/**
 * What the caller is told of one delivery. A webhook's answer (status code, error text) stays in
 * the log and the delivery record: told to the caller, it would make a test send a scanner of
 * whatever the server can reach.
 */
export function deliveryOf(channel: NotificationDelivery['channel'], recipient: string, r: SendResult): NotificationDelivery {
  const error = channel === 'webhook' ? (r.ok ? null : 'not delivered') : r.error;
  return { channel, recipient, status: r.ok ? 'sent' : 'failed', attempts: r.attempts, error };
}

export interface Channels {
  /** Absent when SMTP_URL is not configured. */
  mail?: MailChannel;
  webhook: WebhookChannel;
  /** The command channel: sends saved command `commandId` to the device (commands.v1); throws when it cannot. */
  command?: (commandId: number, deviceId: number) => Promise<unknown>;
}

/** The devices' groups with their parents, nearest first (a rule linked to a group covers its subgroups' devices, as Traccar). */
function groupChains(rows: readonly { id: number; groupId: number | null }[]): (groupId: number | null) => number[] {
  const parent = new Map(rows.map((g) => [g.id, g.groupId]));
  return (groupId) => {
    const chain: number[] = [];
    for (let g = groupId; g !== null && g !== undefined && !chain.includes(g); g = parent.get(g) ?? null) chain.push(g);
    return chain;
  };
}

/** The event a delivery is about, for the web channel's live half. */
interface LiveEvent {
  event: EventMessage;
  device: { name: string };
}

/**
 * Delivers notifications: for an event, every matching rule's channels to every recipient; each
 * delivery is logged in notification_deliveries (the web channel's delivery is that row, a notice
 * in the recipient's inbox, type deviceEvent, and the event on the recipient's live feed with its
 * sentence: webPush). A delivery already logged for the same rule, event, channel and recipient is
 * not repeated, so a redelivered event notifies once (the live feed at least once: it is sent
 * before the record, and a failed send fails the batch, which is tried again).
 */
export function notificationDispatcher(deps: {
  db: Orm;
  channels: Channels;
  logger: Logger;
  /** The inbox, where the web channel delivers (a notice per recipient). */
  inbox?: { notify(tx: Orm, n: Notice): Promise<number> };
  /** The live feed, where the web channel sends an event to the recipient's sockets. */
  webPush?: WebPush;
}) {
  const { db, channels, logger } = deps;

  /**
   * One message through one channel (mail or webhook; the web channel is a record, always "sent").
   * `retry` false tries a webhook once (a test send: how many retries a failure took would tell
   * refused from silent ports).
   */
  async function send(
    channel: NotificationDelivery['channel'],
    recipient: string,
    msg: NotificationMessage,
    payload: unknown,
    retry: boolean,
  ): Promise<SendResult> {
    let result: SendResult;
    if (channel === 'web') result = { ok: true, attempts: 1, error: null };
    else if (channel === 'mail') {
      if (!channels.mail) result = { ok: false, attempts: 0, error: 'mail is not configured (SMTP_URL)' };
      else {
        try {
          await channels.mail.send(recipient, msg.subject, msg.body);
          result = { ok: true, attempts: 1, error: null };
        } catch (err) {
          result = { ok: false, attempts: 1, error: err instanceof Error ? err.message : String(err) };
        }
      }
    } else if (channel === 'command') {
      const [commandId, deviceId] = recipient.split('@').map(Number) as [number, number];
      if (!channels.command) result = { ok: false, attempts: 0, error: 'the command channel is not configured' };
      else {
        try {
          await channels.command(commandId, deviceId);
          result = { ok: true, attempts: 1, error: null };
        } catch (err) {
          result = { ok: false, attempts: 1, error: err instanceof Error ? err.message : String(err) };
        }
      }
    } else result = await channels.webhook(recipient, payload, retry ? {} : { attempts: 1 });
    sent.inc({ channel, status: result.ok ? 'sent' : 'failed' });
    return result;
  }

  async function deliverOne(
    rule: NotificationRuleRow,
    eventId: string,
    channel: NotificationDelivery['channel'],
    recipient: string,
    userId: number | null,
    msg: NotificationMessage,
    payload: unknown,
    dedupe: boolean,
    live?: LiveEvent,
  ): Promise<NotificationDelivery | undefined> {
    if (dedupe) {
      const [done] = await db
        .select({ id: notificationDeliveries.id })
        .from(notificationDeliveries)
        .where(
          and(
            eq(notificationDeliveries.ruleId, rule.id),
            eq(notificationDeliveries.eventId, eventId),
            eq(notificationDeliveries.channel, channel),
            eq(notificationDeliveries.recipient, recipient),
          ),
        );
      if (done) return undefined;
    }
    if (channel === 'web' && userId !== null && live && deps.webPush) await deps.webPush(userId, rule.id, live.event, live.device);
    const result = await send(channel, recipient, msg, payload, dedupe);
    const status = result.ok ? 'sent' : 'failed';
    if (!result.ok) logger.warn({ ruleId: rule.id, eventId, channel, recipient, error: result.error }, 'notification not delivered');
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(notificationDeliveries)
        .values({
          ruleId: rule.id,
          eventId,
          channel,
          recipient,
          userId,
          status,
          attempts: result.attempts,
          error: result.error,
          subject: msg.subject,
          body: msg.body,
        })
        .onConflictDoNothing()
        .returning({ id: notificationDeliveries.id });
      // the web channel is the recipient's inbox: the notice commits with its delivery record, so once
      if (row && channel === 'web' && userId !== null && deps.inbox) {
        await deps.inbox.notify(tx, {
          type: dedupe ? 'deviceEvent' : 'notificationTest',
          title: msg.subject,
          message: msg.body,
          entityType: 'event',
          entityId: eventId,
          attributes: { ruleId: rule.id },
          to: { userId },
        });
      }
    });
    return deliveryOf(channel, recipient, result);
  }

  /**
   * Every channel of the rule to every recipient; `dedupe` false is a test send (not deduplicated,
   * webhooks tried once). The command channel sends the rule's saved command to the event's device
   * (recipient "commandId@deviceId"); a test has no device and sends none.
   */
  async function deliver(
    rule: NotificationRuleRow,
    eventId: string,
    msg: NotificationMessage,
    payload: unknown,
    dedupe: boolean,
    deviceId?: number,
    live?: LiveEvent,
  ): Promise<NotificationDelivery[]> {
    const out: (NotificationDelivery | undefined)[] = [];
    for (const channel of rule.notificators) {
      if (channel === 'command') {
        if (rule.commandId !== null && deviceId !== undefined)
          out.push(await deliverOne(rule, eventId, channel, `${rule.commandId}@${deviceId}`, null, msg, payload, dedupe));
        continue;
      }
      if (channel === 'webhook') {
        if (rule.webhookUrl) out.push(await deliverOne(rule, eventId, channel, rule.webhookUrl, null, msg, payload, dedupe));
        continue;
      }
      for (const r of rule.recipients) {
        out.push(
          await deliverOne(rule, eventId, channel, channel === 'mail' ? r.email : String(r.userId), r.userId, msg, payload, dedupe, live),
        );
      }
    }
    return out.filter((d): d is NotificationDelivery => d !== undefined);
  }

  // parsed calendars by id, kept while their data is unchanged (a schedule keeps its expanded occurrences)
  const parsed = new Map<number, { data: string; schedule: CalendarSchedule }>();
  async function calendarAllows(rule: NotificationRuleRow, at: Date): Promise<boolean> {
    if (rule.calendarId === null) return true;
    const [c] = await db.select().from(calendars).where(eq(calendars.id, rule.calendarId));
    if (!c) return false;
    try {
      let entry = parsed.get(c.id);
      if (entry?.data !== c.data) {
        entry = { data: c.data, schedule: parseCalendar(c.data) };
        parsed.set(c.id, entry);
      }
      return calendarActiveAt(entry.schedule, at);
    } catch {
      return false;
    }
  }

  return {
    deliver,
    send,
    /** Notifies every rule matching each event (the events.v1 consumer calls this). */
    async onEvents(events: EventMessage[]): Promise<number> {
      const types = [...new Set(events.map((e) => e.type))];
      const rules = await db.select().from(notificationRules).where(inArray(notificationRules.type, types));
      if (!rules.length) return 0;
      const deviceIds = [...new Set(events.map((e) => e.deviceId))];
      const known = new Map((await db.select().from(devices).where(inArray(devices.id, deviceIds))).map((d) => [d.id, d]));
      const chainOf = groupChains(
        rules.some((r) => r.groupIds.length) ? await db.select({ id: groups.id, groupId: groups.groupId }).from(groups) : [],
      );
      let n = 0;
      for (const event of events) {
        const device = known.get(event.deviceId);
        if (!device) continue;
        for (const rule of rules) {
          if (!ruleMatches(rule, event, device, chainOf(device.groupId)) || !(await calendarAllows(rule, new Date(event.eventTime))))
            continue;
          const msg = eventMessage(event, device);
          const payload = {
            event,
            device: { id: device.id, name: device.name, uniqueId: device.uniqueId, companyId: device.companyId },
            rule: { id: rule.id, type: rule.type },
            message: msg,
          };
          n += (await deliver(rule, event.id, msg, payload, true, device.id, { event, device })).length;
        }
      }
      return n;
    },
  };
}
export type NotificationDispatcher = ReturnType<typeof notificationDispatcher>;
