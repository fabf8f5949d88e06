import {
  deliveredNotificationTypes,
  notificationTypes,
  type Notification,
  type NotificationPage,
  type NotificationSettings,
  type NotificationSettingsInput,
  type NotificationType,
  type Role,
} from '@corridor/contracts';
import { AppError, notFound, type Clock, type Identity, type Orm } from '@corridor/platform';
import type { NotificationSettingsRow } from '../db/schema';
import { mailUnavailable } from '../notification-rules/mail-unavailable';
import { noInternalReceivers, savedUrlRefusal, type OutboundPolicy } from '../notification-rules/outbound-address';
import { channelsOf } from './channels';
import { sameAddress, staleToken, tokenDigest, type EmailVerification, type PendingEmail } from './email-verification';
import type { InboxRow, NotificationsRepository, Recipient } from './repository';

/** Where a notice goes: one user, every holder of a role, or every user of a company. */
type Audience = { userId: number } | { role: Role } | { companyId: number };

export interface Notice {
  type: NotificationType;
  title: string;
  message: string;
  entityType: string;
  entityId: string | number;
  /** The company the notice concerns (with a company audience, the addressee). */
  companyId?: number | null;
  attributes?: Record<string, unknown>;
  to: Audience;
}

const toNotification = (r: InboxRow): Notification => ({
  id: r.id,
  type: r.type,
  title: r.title,
  message: r.message,
  entityType: r.entityType,
  entityId: r.entityId,
  companyId: r.companyId,
  attributes: r.attributes,
  createdAt: r.createdAt.toISOString(),
  readAt: r.readAt?.toISOString() ?? null,
});

const recipient = (id: Identity): Recipient => ({ userId: id.userId, companyId: id.companyId, roles: id.roles });

const toSettings = (row: NotificationSettingsRow | undefined): NotificationSettings => ({
  channels: channelsOf(row),
  email: row?.email ?? null,
  pendingEmail: row?.pendingEmail ?? null,
  webhookUrl: row?.webhookUrl ?? null,
  updatedAt: row?.updatedAt.toISOString() ?? null,
});

/**
 * The notification inbox. Modules call `notify(tx, notice)` inside the transaction of the decision
 * it reports, so the notice exists exactly when the decision does. The web channel is this inbox:
 * a type whose web channel a user turned off is left out of their inbox. The mail and webhook
 * channels of the domain notices are delivered after the decision commits (delivery.ts).
 */
export function notificationsService(deps: {
  repo: NotificationsRepository;
  clock: Clock;
  /** Internal receivers a saved webhookUrl may name (WEBHOOK_ALLOW); default: public addresses only. */
  webhookPolicy?: OutboundPolicy;
  /** Whether the server has a mail channel (SMTP_URL); without one no email switch may be turned on. */
  mailEnabled: boolean;
  /** Mails the verification link of a new notification address (with the mail channel; without one no address may be set). */
  emailVerification?: EmailVerification;
}) {
  const { repo, clock } = deps;

  async function hiddenTypes(userId: number): Promise<string[]> {
    const channels = channelsOf(await repo.settings(userId));
    return notificationTypes.filter((t) => !channels[t].web);
  }

  /**
   * What a save does to the addresses: null stops using one at once; the verified address again
   * cancels a pending one; the pending address again (its link still valid) changes nothing; any
   * other address becomes pending, and its link is mailed once the row is saved (`send`).
   */
  async function addressChange(
    id: Identity,
    current: NotificationSettingsRow | undefined,
    asked: string | null | undefined,
  ): Promise<{ row: { email: string | null } & NullablePending; send?: () => Promise<void> }> {
    const email = current?.email ?? null;
    const kept: NullablePending = {
      pendingEmail: current?.pendingEmail ?? null,
      pendingEmailToken: current?.pendingEmailToken ?? null,
      pendingEmailExpiresAt: current?.pendingEmailExpiresAt ?? null,
    };
    const none: NullablePending = { pendingEmail: null, pendingEmailToken: null, pendingEmailExpiresAt: null };
    if (asked === undefined) return { row: { email, ...kept } };
    if (asked === null) return { row: { email: null, ...none } };
    if (sameAddress(asked, email)) return { row: { email, ...none } };
    if (sameAddress(asked, kept.pendingEmail) && kept.pendingEmailExpiresAt && kept.pendingEmailExpiresAt > clock.now())
      return { row: { email, ...kept } };
    if (!deps.emailVerification) throw mailUnavailable('body', 'email');
    const { pending, send } = await deps.emailVerification.start(id.userId, asked.trim());
    return { row: { email, ...pending }, send };
  }

  return {
    async notify(tx: Orm, n: Notice): Promise<number> {
      const row = await repo.insert(tx, {
        type: n.type,
        title: n.title,
        message: n.message,
        entityType: n.entityType,
        entityId: String(n.entityId),
        userId: 'userId' in n.to ? n.to.userId : null,
        role: 'role' in n.to ? n.to.role : null,
        companyId: 'companyId' in n.to ? n.to.companyId : (n.companyId ?? null),
        attributes: n.attributes ?? {},
        deliveryPending: (deliveredNotificationTypes as readonly NotificationType[]).includes(n.type),
      });
      return row.id;
    },
    async inbox(
      id: Identity,
      q: { unread?: boolean; type?: NotificationType[]; from?: string; to?: string; limit: number; offset: number },
    ): Promise<NotificationPage> {
      const from = q.from ? new Date(q.from) : undefined;
      const to = q.to ? new Date(q.to) : undefined;
      if (from && to && from > to)
        throw new AppError('VALIDATION_FAILED', 'from must not be after to', [{ in: 'querystring', path: 'from', message: 'after to' }]);
      const { rows, total, unread } = await repo.inbox(recipient(id), {
        unread: q.unread,
        types: q.type,
        from,
        to,
        hiddenTypes: await hiddenTypes(id.userId),
        limit: q.limit,
        offset: q.offset,
      });
      return { items: rows.map(toNotification), total, unreadCount: unread, limit: q.limit, offset: q.offset };
    },
    /** Whether the notification is addressed to this caller (them, their company or their role). */
    async isVisible(id: Identity, notificationId: number): Promise<boolean> {
      return (await repo.visible(recipient(id), notificationId)) !== undefined;
    },
    async markRead(id: Identity, notificationId: number): Promise<Notification> {
      const found = await repo.visible(recipient(id), notificationId);
      if (!found) throw notFound('Notification', notificationId);
      if (!found.readAt) await repo.markRead(id.userId, notificationId, clock.now());
      const row = await repo.visible(recipient(id), notificationId);
      return toNotification(row!);
    },
    /** The user's own addresses (null: none set, or not verified yet; mail then goes to the account email). */
    async addressOf(userId: number): Promise<{ email: string | null; webhookUrl: string | null }> {
      const row = await repo.settings(userId);
      return { email: row?.email ?? null, webhookUrl: row?.webhookUrl ?? null };
    },
    async settings(id: Identity): Promise<NotificationSettings> {
      return toSettings(await repo.settings(id.userId));
    },
    async updateSettings(id: Identity, input: NotificationSettingsInput): Promise<NotificationSettings> {
      const current = await repo.settings(id.userId);
      const before = channelsOf(current);
      // a switch turned on here; one already on (saved while the server had mail) may stay on or be turned off
      const mailAsked = notificationTypes.find((t) => input.channels[t]?.email && !before[t].email);
      if (mailAsked && !deps.mailEnabled) throw mailUnavailable('body', `channels.${mailAsked}.email`);
      const channels = { ...before, ...input.channels };
      const webhookUrl = input.webhookUrl === undefined ? (current?.webhookUrl ?? null) : input.webhookUrl;
      // the same guard as notification rules' webhooks: a literal internal address is refused on save
      const refused = input.webhookUrl ? savedUrlRefusal(input.webhookUrl, deps.webhookPolicy ?? noInternalReceivers) : undefined;
      if (refused)
        throw new AppError('VALIDATION_FAILED', `webhookUrl: ${refused}`, [{ in: 'body', path: 'webhookUrl', message: refused }]);
      const needsHook = Object.entries(channels)
        .filter(([, c]) => c.webhook)
        .map(([t]) => t);
      if (needsHook.length && !webhookUrl) {
        throw new AppError('VALIDATION_FAILED', `webhookUrl: required when the webhook channel is on (${needsHook.join(', ')})`, [
          { in: 'body', path: 'webhookUrl', message: 'required when a webhook channel is on' },
        ]);
      }
      const address = await addressChange(id, current, input.email);
      const saved = toSettings(
        await repo.saveSettings({ userId: id.userId, channels, ...address.row, webhookUrl, updatedAt: clock.now() }),
      );
      await address.send?.();
      return saved;
    },
    /** The link's token: its pending address becomes the one in use (public: the token is the proof). */
    async verifyEmail(token: string): Promise<{ email: string }> {
      const done = await repo.verifyPending(tokenDigest(token), clock.now());
      deps.emailVerification?.counted(done ? 'verified' : 'refused');
      if (!done) throw staleToken();
      return { email: done.email };
    },
  };
}
type NullablePending = { [K in keyof PendingEmail]: PendingEmail[K] | null };
export type NotificationsService = ReturnType<typeof notificationsService>;
