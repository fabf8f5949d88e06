import { and, asc, eq, inArray } from 'drizzle-orm';
import { noticeText } from '@corridor/contracts';
import { counter, readUserDirectory, type Cache, type Logger, type Orm, type UserDirectory } from '@corridor/platform';
import { noticeDeliveries, notifications, notificationSettings, type NotificationRow } from '../db/schema';
import type { SendResult } from '../notification-rules/dispatcher';
import type { NotificationMessage } from '../notification-rules/message';
import { periodicCheck } from '../periodic-check';
import { channelsOf } from './channels';

const failures = counter('notice_deliveries_failed_total', 'Inbox notices not delivered by mail or webhook, by channel', ['channel']);

/** The rules' channels (NotificationDispatcher.send: the SMTP channel, the webhook channel with its SSRF guard). */
export type SendPort = (
  channel: 'mail' | 'webhook',
  recipient: string,
  msg: NotificationMessage,
  payload: unknown,
  retry: boolean,
) => Promise<SendResult>;

/** The users a notice is addressed to, as the inbox reads it (repository.ts addressedTo): the user; else the role's holders; else the company's users. */
function addresseesOf(n: Pick<NotificationRow, 'userId' | 'role' | 'companyId'>, directory: UserDirectory): UserDirectory {
  if (n.userId !== null) return directory.filter((u) => u.id === n.userId);
  if (n.role !== null) return directory.filter((u) => u.roles?.includes(n.role!));
  if (n.companyId !== null) return directory.filter((u) => u.companyId === n.companyId);
  return [];
}

/**
 * Delivers committed notices (notifications.delivery_pending) by mail and webhook. A notice is
 * written in the transaction of its decision; this runs afterwards, from a periodic check, so a
 * send never delays or fails the decision and a rolled-back decision sends nothing. Each delivery
 * is claimed first in notice_deliveries (unique per notice, user and channel), so a notice looked
 * at twice (two instances, a crash before the notice is marked done) reaches a user once per
 * channel; a failed send is logged, counted and recorded there, not retried beyond the channel's own
 * retries. Recipients come from the user directory the gateway publishes (ids, companies, roles,
 * account emails, languages: each user's mail and webhook carry the notice worded in their language); while it is unavailable the notices wait for the next check.
 */
export function noticeDelivery(deps: { db: Orm; cache: Cache; send: SendPort; logger: Logger; batch?: number }) {
  const { db, logger } = deps;

  async function deliverOne(
    n: NotificationRow,
    user: UserDirectory[number],
    channel: 'mail' | 'webhook',
    recipient: string | undefined,
  ): Promise<boolean> {
    const userId = user.id;
    const [claimed] = await db
      .insert(noticeDeliveries)
      .values({ notificationId: n.id, userId, channel, recipient: recipient ?? '', status: 'sending' })
      .onConflictDoNothing()
      .returning({ id: noticeDeliveries.id });
    if (!claimed) return false;
    // worded in the user's language (the directory's, else English) from the notice's type and parameters, as the console's inbox words it
    const { title, message } = noticeText(n, user.language);
    const msg = { subject: title, body: message };
    const payload = {
      notification: {
        id: n.id,
        type: n.type,
        title,
        message,
        entityType: n.entityType,
        entityId: n.entityId,
        companyId: n.companyId,
        attributes: n.attributes,
        createdAt: n.createdAt.toISOString(),
      },
      userId,
    };
    const result: SendResult = recipient
      ? await deps.send(channel, recipient, msg, payload, true)
      : { ok: false, attempts: 0, error: 'no email address' };
    if (!result.ok) {
      failures.inc({ channel });
      logger.warn({ notificationId: n.id, userId, channel, error: result.error }, 'notice not delivered');
    }
    await db
      .update(noticeDeliveries)
      .set({ status: result.ok ? 'sent' : 'failed', attempts: result.attempts, error: result.error, at: new Date() })
      .where(eq(noticeDeliveries.id, claimed.id));
    return true;
  }

  /** Delivers the pending notices (oldest first, `batch` at a time); returns how many deliveries were made or failed. */
  async function check(): Promise<number> {
    const pending = await db
      .select()
      .from(notifications)
      .where(eq(notifications.deliveryPending, true))
      .orderBy(asc(notifications.id))
      .limit(deps.batch ?? 100);
    if (!pending.length) return 0;
    let directory: UserDirectory;
    try {
      directory = await readUserDirectory(deps.cache);
    } catch (err) {
      logger.warn({ err, pending: pending.length }, 'notices wait: the user directory is unavailable');
      return 0;
    }
    let n = 0;
    for (const notice of pending) {
      const users = addresseesOf(notice, directory);
      const saved = users.length
        ? await db
            .select()
            .from(notificationSettings)
            .where(
              inArray(
                notificationSettings.userId,
                users.map((u) => u.id),
              ),
            )
        : [];
      const byUser = new Map(saved.map((s) => [s.userId, s]));
      for (const u of users) {
        const row = byUser.get(u.id);
        const wants = channelsOf(row)[notice.type];
        if (wants.email && (await deliverOne(notice, u, 'mail', row?.email ?? u.email))) n++;
        if (wants.webhook && row?.webhookUrl && (await deliverOne(notice, u, 'webhook', row.webhookUrl))) n++;
      }
      await db
        .update(notifications)
        .set({ deliveryPending: false })
        .where(and(eq(notifications.id, notice.id), eq(notifications.deliveryPending, true)));
    }
    return n;
  }

  return {
    check,
    /** start(everyMs): checks every `everyMs` (one check at a time); stop() waits for the check under way. */
    ...periodicCheck(check, logger, 'notice delivery'),
  };
}
export type NoticeDelivery = ReturnType<typeof noticeDelivery>;
