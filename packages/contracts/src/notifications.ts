import { z } from 'zod';
import { idParam } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes, IsoDateTime, Pagination, repeated } from './common';

/**
 * The signed-in user's notification inbox (GET /inbox) and channel preferences
 * (/settings/notification). /notifications is Traccar's NotificationResource: the notification
 * rules (notification-rules.ts). The inbox is also their web channel: a rule's event (deviceEvent),
 * a test (notificationTest) and an administrator's announcement (announcement).
 */
export const NotificationType = z.enum([
  'certificateApplied',
  'certificateSubmitted',
  'certificateApproved',
  'certificateRejected',
  'complaintFiled',
  'complaintStatusChanged',
  'sanctionRecorded',
  'deviceEvent',
  'notificationTest',
  'announcement',
]);
export type NotificationType = z.infer<typeof NotificationType>;
export const notificationTypes = NotificationType.options;
/**
 * The notices that also go out by mail and webhook, shortly after the decision that made them, to
 * each addressed user whose settings turn that channel on. deviceEvent, notificationTest and
 * announcement are not among them: the notification rules and direct sends deliver those.
 */
export const deliveredNotificationTypes = [
  'certificateApplied',
  'certificateSubmitted',
  'certificateApproved',
  'certificateRejected',
  'complaintFiled',
  'complaintStatusChanged',
  'sanctionRecorded',
] as const satisfies readonly NotificationType[];

export const Notification = z
  .object({
    id: z.number().int().positive(),
    type: NotificationType,
    title: z.string(),
    message: z.string(),
    entityType: z.string().describe('what it is about, e.g. single_use_certificate'),
    entityId: z.string(),
    companyId: z.number().int().nullable(),
    attributes: Attributes,
    createdAt: IsoDateTime,
    readAt: IsoDateTime.nullable(),
  })
  .meta({ id: 'Notification' });
export type Notification = z.infer<typeof Notification>;

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');

export const NotificationsQuery = Pagination.extend({
  unread: bool.optional().describe('true: unread only; false: read only'),
  type: repeated(NotificationType).optional(),
  from: IsoDateTime.optional().describe('created at or after'),
  to: IsoDateTime.optional().describe('created at or before'),
});

export const NotificationPage = z
  .object({
    items: z.array(Notification),
    total: z.number().int(),
    unreadCount: z.number().int().describe('unread in the whole inbox, whatever the filters'),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: 'NotificationPage' });
export type NotificationPage = z.infer<typeof NotificationPage>;

export const ChannelPreference = z
  .object({
    web: z.boolean().describe('shown in the inbox (default true)'),
    email: z
      .boolean()
      .describe(
        'mailed to the notification email, else the account email (default false). Only on a server with a mail channel (SMTP_URL): without one, turning it on answers 400 ' +
          '(GET /notifications/notificators lists mail only when there is one).',
      ),
    webhook: z.boolean().describe('POSTed as JSON { notification, userId } to webhookUrl (default false)'),
  })
  .describe(
    "One type's channels. email and webhook deliver the certificate, complaint and sanction notices addressed to the user (to them, their company or one of their roles), " +
      'once each, shortly after the decision that made them; deviceEvent, notificationTest and announcement go out through the notification rules and direct sends instead.',
  )
  .meta({ id: 'ChannelPreference' });
export type ChannelPreference = z.infer<typeof ChannelPreference>;

export const NotificationSettings = z
  .object({
    channels: z.record(NotificationType, ChannelPreference).describe('every notification type, with its channels'),
    email: z.email().nullable().describe('the verified address email notifications go to; null = the account email'),
    pendingEmail: z
      .email()
      .nullable()
      .describe(
        'an address set here and not verified yet: a link was mailed to it, and until it is opened (within a day) mail keeps going to email, else the account email',
      ),
    webhookUrl: z.url({ protocol: /^https?$/ }).nullable(),
    updatedAt: IsoDateTime.nullable().describe('null until the user saves settings (defaults shown)'),
  })
  .meta({ id: 'NotificationSettings' });
export type NotificationSettings = z.infer<typeof NotificationSettings>;

export const NotificationSettingsInput = z
  .object({
    channels: z.partialRecord(NotificationType, ChannelPreference).default({}).describe('types left out keep their current channels'),
    email: z
      .email()
      .max(254)
      .nullable()
      .optional()
      .describe(
        'a new address becomes pendingEmail and is mailed a verification link (it is used once verified); the verified address again cancels a pending one; null stops using one at once',
      ),
    webhookUrl: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .nullable()
      .optional(),
  })
  .meta({ id: 'NotificationSettingsInput' });
export type NotificationSettingsInput = z.infer<typeof NotificationSettingsInput>;

export const NotificationEmailVerification = z
  .object({ token: z.string().min(16).max(128).describe('the token of the link mailed to the pending address') })
  .meta({ id: 'NotificationEmailVerification' });
export type NotificationEmailVerification = z.infer<typeof NotificationEmailVerification>;

export const NotificationEmailVerified = z
  .object({ email: z.email().describe('the address now in use for email notifications') })
  .meta({ id: 'NotificationEmailVerified' });
export type NotificationEmailVerified = z.infer<typeof NotificationEmailVerified>;

const tags = ['notifications'];
export const notificationsEndpoints = [
  defineEndpoint({
    id: 'inbox.list',
    method: 'get',
    path: '/inbox',
    service: 'ops-api',
    tags,
    summary: "The signed-in user's notifications, newest first",
    description:
      'Notifications addressed to the user, to their company, or to one of their roles; types whose web channel the user turned off are left out.',
    access: 'authenticated',
    request: { query: NotificationsQuery },
    responses: { 200: { description: 'A page of notifications', schema: NotificationPage } },
  }),
  defineEndpoint({
    id: 'inbox.markRead',
    method: 'put',
    path: '/inbox/{id}/read',
    service: 'ops-api',
    tags,
    summary: 'Mark one notification read (idempotent)',
    access: 'authenticated',
    request: { params: idParam('notification') },
    responses: { 200: { description: 'The notification', schema: Notification } },
  }),
  defineEndpoint({
    id: 'notificationSettings.get',
    method: 'get',
    path: '/settings/notification',
    service: 'ops-api',
    tags,
    summary: "The signed-in user's notification channels per type",
    access: 'authenticated',
    responses: { 200: { description: 'Settings', schema: NotificationSettings } },
  }),
  defineEndpoint({
    id: 'notificationSettings.update',
    method: 'put',
    path: '/settings/notification',
    service: 'ops-api',
    tags,
    summary: "Change the signed-in user's notification channels",
    description:
      "The webhook channel needs a webhookUrl (400 otherwise). On a server without a mail channel (no SMTP_URL), turning a type's email switch on answers 400 " +
      'naming that switch (body.channels.<type>.email: mail is not available), as a notification rule or a report asking for mail does; a switch already on may stay on or be ' +
      'turned off, and the webhook switch is allowed. A webhookUrl naming an internal address (loopback, private, link-local, metadata; outside WEBHOOK_ALLOW) or carrying credentials answers 400, as for notification rules.',
    access: 'authenticated',
    request: { body: NotificationSettingsInput },
    responses: { 200: { description: 'Settings after the change', schema: NotificationSettings } },
  }),
  defineEndpoint({
    id: 'notificationSettings.verifyEmail',
    method: 'post',
    path: '/settings/notification/email/verify',
    service: 'ops-api',
    tags,
    summary: 'Verify a notification email address with the token of the link mailed to it',
    description:
      "What the console's /verify-email page sends when the link is opened; public, as the link may be opened where its user is not signed in: the token, " +
      'single use and valid for a day, is the proof. The pending address becomes the one email notifications go to. A token that is unknown, expired, already used ' +
      'or made stale by a later change answers 400 naming token.',
    access: 'public',
    request: { body: NotificationEmailVerification },
    responses: { 200: { description: 'The address now in use', schema: NotificationEmailVerified } },
  }),
] as const;
