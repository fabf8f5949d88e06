import { randomUUID } from 'node:crypto';
import type { NotificationDelivery, NotificationMessage as TraccarMessage, Notificator } from '@corridor/contracts';
import { AppError, readUserDirectory, type Cache, type Logger, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { Actor } from '../resources/scope';
import type { Notice } from '../notifications/service';
import { deliveryOf, type NotificationDispatcher } from './dispatcher';
import type { NotificationMessage } from './message';

/** The inbox (the web channel) and each user's own addresses (their /settings/notification). */
export interface InboxPort {
  notify(tx: Orm, n: Notice): Promise<number>;
  addressOf(userId: number): Promise<{ email: string | null; webhookUrl: string | null }>;
}

/** Channels that can carry an announcement (Traccar's announcement=true list): not webhook. */
const announcementChannels: readonly Notificator[] = ['web', 'mail'];

const badChannel = (message: string) => new AppError('VALIDATION_FAILED', message, [{ in: 'params', path: 'notificator', message }]);

/**
 * Messages that are not about an event: Traccar's POST /notifications/test (to the caller, through
 * every channel this server has and the caller can receive) and POST /notifications/send/{notificator}
 * (an administrator's announcement to users). The web channel is the recipient's inbox; mail and
 * webhook go through the rules' channels (the webhook's SSRF guard included). Nothing here is
 * deduplicated: each call sends once.
 */
export function directSend(deps: {
  db: Orm;
  cache: Cache;
  dispatcher: NotificationDispatcher;
  inbox: InboxPort;
  channels: readonly Notificator[];
  logger: Logger;
}) {
  const { db, dispatcher, inbox, logger } = deps;

  async function web(
    userId: number,
    type: 'notificationTest' | 'announcement',
    msg: NotificationMessage,
    ref: string,
  ): Promise<NotificationDelivery> {
    await inbox.notify(db, {
      type,
      title: msg.subject,
      message: msg.body,
      entityType: type === 'announcement' ? 'announcement' : 'notification_test',
      entityId: ref,
      to: { userId },
    });
    return deliveryOf('web', String(userId), { ok: true, attempts: 1, error: null });
  }

  async function external(
    channel: 'mail' | 'webhook',
    to: string,
    msg: NotificationMessage,
    payload: unknown,
    retry: boolean,
  ): Promise<NotificationDelivery> {
    const r = await dispatcher.send(channel, to, msg, payload, retry);
    if (!r.ok) logger.warn({ channel, recipient: to, error: r.error }, 'message not delivered');
    return deliveryOf(channel, to, r);
  }

  return {
    /** A test message to the caller: through `only`, or through every channel they can receive (a channel without their address is left out). */
    async testCaller(actor: Actor, only?: Notificator): Promise<NotificationDelivery[]> {
      const who = actor.identity;
      if (only && !deps.channels.includes(only)) throw badChannel(`${only} is not available on this server`);
      const ref = `test-${randomUUID()}`;
      const msg = {
        subject: 'Test notification',
        body: `This is a test notification for ${who.email}, sent through the channels it was asked for.`,
      };
      const address = await inbox.addressOf(who.userId);
      const out: NotificationDelivery[] = [];
      for (const channel of only ? [only] : deps.channels) {
        if (channel === 'web') out.push(await web(who.userId, 'notificationTest', msg, ref));
        else if (channel === 'mail') out.push(await external('mail', address.email ?? who.email, msg, null, false));
        else if (channel === 'command') {
          // a saved command goes to the device of an event: a test of the caller has none
          if (only) throw badChannel("the command channel sends a rule's saved command to the device of an event: nothing to send to you");
        } else if (address.webhookUrl) out.push(await external('webhook', address.webhookUrl, msg, { test: true, message: msg }, false));
        else if (only) throw badChannel('no webhookUrl in your notification settings (/settings/notification)');
      }
      return out;
    },

    /** An administrator's message to users (every user when `userIds` is empty) through one announcement channel; audited. */
    async announce(actor: Actor, channel: Notificator, userIds: readonly number[], m: TraccarMessage): Promise<NotificationDelivery[]> {
      if (!announcementChannels.includes(channel))
        throw badChannel(`${channel} cannot carry an announcement (only ${announcementChannels.join(', ')})`);
      if (!deps.channels.includes(channel)) throw badChannel(`${channel} is not available on this server`);
      const directory = await readUserDirectory(deps.cache);
      const wanted = new Set(userIds);
      const users = userIds.length ? directory.filter((u) => wanted.has(u.id)) : directory;
      const ref = `announcement-${randomUUID()}`;
      const msg = { subject: m.subject ?? m.digest ?? 'Announcement', body: m.body };
      const out: NotificationDelivery[] = [];
      for (const u of users) {
        if (channel === 'web') {
          out.push(await web(u.id, 'announcement', msg, ref));
          continue;
        }
        const email = (await inbox.addressOf(u.id)).email ?? u.email;
        if (email) out.push(await external('mail', email, msg, null, true));
      }
      await audit.record(db, actor.identity, {
        action: 'announcement.send',
        entityType: 'announcement',
        entityId: ref,
        companyId: null,
        after: {
          channel,
          userIds: users.map((u) => u.id),
          subject: msg.subject,
          deliveries: out.length,
          failed: out.filter((d) => d.status === 'failed').length,
        },
        requestId: actor.requestId,
      });
      return out;
    },
  };
}
export type DirectSend = ReturnType<typeof directSend>;
