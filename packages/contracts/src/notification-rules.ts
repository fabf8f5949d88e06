import { z } from 'zod';
import { notRef, ref, optionalRef } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes, repeated } from './common';
import { AlarmType, EventType } from './events';
import { queryFlag, ListQuery, OwnerCompanyInput, resourceEndpoints, trackingWriters, TypeItem } from './resource-endpoints';

/**
 * Traccar's NotificationResource at /notifications: the notification rules (the user's inbox is
 * GET /inbox, a different resource). A rule says which event type (and, for type alarm, which
 * alarms) of which devices notify which users through which channels. Channels (Traccar
 * "notificators"): web (the recipients' inbox), mail (SMTP, to each recipient's email) and webhook
 * (an HTTP POST of the event to webhookUrl, retried with backoff) and command (the saved command
 * commandId, sent to the event's device). A company's rule covers that company's devices only.
 * A rule's links are its own fields (deviceIds, groupIds, recipients): Traccar's permissions with
 * notificationId read and write those same fields (GET/POST/DELETE /notifications/links, which
 * the gateway's /permissions forwards to), so there is one source of truth.
 */
export const Notificator = z.enum(['web', 'mail', 'webhook', 'command']);
export type Notificator = z.infer<typeof Notificator>;

/** Channels as Traccar writes them ("web,mail") or as a list (["web", "mail"]). */
const NotificatorList = z
  .union([
    z.array(Notificator),
    z
      .string()
      .max(200)
      .transform((s) =>
        s
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean),
      )
      .pipe(z.array(Notificator)),
  ])
  .pipe(z.array(Notificator).min(1))
  .describe('Channels: "web,mail" as Traccar writes them, or ["web", "mail"]');

export const NotificationRecipient = z
  .object({ userId: ref('user', z.number().int().positive()), email: z.email().max(254) })
  .meta({ id: 'NotificationRecipient' });

export const NotificationRule = z
  .object({
    id: z.number().int().positive(),
    type: EventType,
    description: z.string().nullable(),
    always: z.boolean().describe("Every device the rule's company owns (every device for a shared rule); else only deviceIds"),
    notificators: z.string().describe('Comma-separated channels, as Traccar: "web,mail,webhook"'),
    calendarId: z.number().int().min(0).describe('Only notify while this calendar has an event running; 0 = always (Traccar)'),
    attributes: Attributes.describe('Free-form; for type alarm, attributes.alarms is the comma-separated alarms (as Traccar)'),
    deviceIds: z.array(z.number().int()),
    groupIds: z.array(z.number().int()).describe('The devices of these groups (and of their subgroups) are covered too'),
    commandId: z.number().int().min(0).describe("The saved command the command channel sends to the event's device; 0 = none (Traccar)"),
    alarms: z.array(AlarmType).describe('For type alarm: the alarms that notify (empty = any)'),
    recipients: z.array(NotificationRecipient),
    webhookUrl: z.string().nullable(),
    companyId: z.number().int().nullable(),
  })
  .meta({ id: 'NotificationRule' });
export type NotificationRule = z.infer<typeof NotificationRule>;

export const NotificationRuleInput = z
  .object({
    type: EventType,
    description: z.string().max(500).nullable().default(null),
    always: z.boolean().default(false),
    deviceIds: z.array(ref('device', z.number().int().positive())).max(1000).default([]),
    groupIds: z
      .array(ref('group', z.number().int().positive()))
      .max(1000)
      .default([])
      .describe('Devices of these groups and their subgroups'),
    commandId: optionalRef('command').describe('For the command channel: the saved command to send'),
    alarms: z
      .array(AlarmType)
      .default([])
      .describe('For type alarm (empty = any). attributes.alarms ("sos,powerCut", as Traccar writes them) wins when present'),
    notificators: NotificatorList,
    recipients: z
      .array(NotificationRecipient)
      .max(100)
      .default([])
      .describe('Empty with web or mail: the caller (Traccar links a new rule to its creator)'),
    webhookUrl: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .nullable()
      .default(null),
    calendarId: optionalRef('calendar'),
    companyId: OwnerCompanyInput,
    attributes: Attributes.default({}),
  })
  .meta({ id: 'NotificationRuleInput' });
export type NotificationRuleInput = z.infer<typeof NotificationRuleInput>;

export const NotificationRulesQuery = ListQuery.extend({
  type: EventType.optional(),
  deviceId: ref('device', z.coerce.number().int().positive()).optional().describe('Rules covering that device (always or listed)'),
  groupId: ref('group', z.coerce.number().int().positive())
    .optional()
    .describe('Rules linked to that group, or covering a device of it (always or listed)'),
  userId: ref('user', z.coerce.number().int().positive()).optional().describe('Rules that notify that user (a recipient)'),
  all: queryFlag
    .optional()
    .describe('Traccar list param; the caller sees every rule of their company (staff: every rule) already, so it changes nothing'),
  refresh: queryFlag.optional().describe('Traccar list param (cache refresh); rules are read fresh, so it changes nothing'),
});

export const NotificationTestInput = z
  .object({ ruleId: ref('notificationRule', z.number().int().positive()) })
  .meta({ id: 'NotificationTestInput' });

/** Traccar's NotificationMessage: what /notifications/send/{notificator} sends. */
export const NotificationMessage = z
  .object({
    subject: z.string().max(200).optional(),
    digest: z
      .string()
      .max(500)
      .optional()
      .describe('A short form (Traccar: for short channels); the inbox shows it when there is no subject'),
    body: z.string().min(1).max(10000),
    priority: z.boolean().optional(),
  })
  .meta({ id: 'NotificationMessage' });
export type NotificationMessage = z.infer<typeof NotificationMessage>;

export const NotificationDelivery = z
  .object({
    channel: Notificator,
    recipient: z.string().describe('user id (web), email address (mail) or URL (webhook)'),
    status: z.enum(['sent', 'failed']),
    attempts: z.number().int(),
    error: z.string().nullable(),
  })
  .meta({ id: 'NotificationDelivery' });
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

const linkId = z.number().int().positive();
/**
 * A notification rule's link to a user (a recipient), a device or a group: Traccar's Permission with
 * notificationId. One object per kind (a union: valid by construction for a request generator).
 */
const ruleId = ref('notificationRule', linkId);
export const NotificationLink = z
  .union(
    [
      z.strictObject({ notificationId: ruleId, userId: ref('user', linkId) }),
      z.strictObject({ notificationId: ruleId, deviceId: ref('device', linkId) }),
      z.strictObject({ notificationId: ruleId, groupId: ref('group', linkId) }),
    ],
    { error: 'notificationId and exactly one of userId, deviceId, groupId' },
  )
  .meta({ id: 'NotificationLink' });
export interface NotificationLink {
  notificationId: number;
  userId?: number;
  deviceId?: number;
  groupId?: number;
}

const linkQueryId = z.coerce.number().int().min(0).optional().describe('0 = any');
export const NotificationLinksQuery = z
  .object({
    notificationId: ref('notificationRule', linkQueryId),
    userId: ref('user', linkQueryId),
    deviceId: ref('device', linkQueryId),
    groupId: ref('group', linkQueryId),
    limit: z.coerce.number().int().min(1).max(10000).default(1000),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .superRefine((q, ctx) => {
    const n = [q.userId, q.deviceId, q.groupId].filter((x) => x !== undefined).length;
    if (n !== 1) ctx.addIssue({ code: 'custom', message: 'exactly one of userId, deviceId, groupId is required (0 = any)', path: [] });
  });

const notificatorParam = z.object({ notificator: notRef(Notificator, 'a channel name (web, mail, webhook, command), not an entry') });
const testDescription =
  'Without a body: a test message to the caller through every channel this server has and the caller can receive ' +
  "(web: the caller's inbox; mail: their notification email, else their account email; webhook: the webhookUrl of their /settings/notification). " +
  'With { ruleId }: to each recipient and channel of that rule. Answers what happened to each delivery; a webhook is tried once and answers ' +
  'only sent or failed (error "not delivered"), never the receiver\'s answer.';

const deliveredAnswer =
  'As in Traccar: 204 when every delivery went out; 400 NOT_DELIVERED when one failed, with every delivery ' +
  '(NotificationDelivery: channel, recipient, status, attempts, error) in details.deliveries.';

const tags = ['notifications'];
export const notificationRulesEndpoints = [
  ...resourceEndpoints({
    id: 'notifications',
    path: '/notifications',
    noun: 'notification rule',
    kind: 'notificationRule',
    tags,
    entity: NotificationRule,
    input: NotificationRuleInput,
    query: NotificationRulesQuery,
    write: trackingWriters,
    companyScoped: true,
    description:
      'mail needs at least one recipient, webhook needs webhookUrl, command needs commandId (400 naming the field). A rule that is not always covers its deviceIds and the devices of its groupIds: none until ' +
      'linked (Traccar clients save a rule, then link it through /permissions). ' +
      'webhookUrl reaches public addresses only (loopback, private, link-local and metadata addresses are refused on save when literal, and at ' +
      "every delivery after resolving a name), unless on the server's WEBHOOK_ALLOW list. Keyword searches the description.",
  }),
  defineEndpoint({
    id: 'notifications.types',
    method: 'get',
    path: '/notifications/types',
    service: 'ops-api',
    tags,
    access: 'authenticated',
    summary: 'Event types a rule may notify',
    responses: { 200: { description: 'Types', schema: z.array(TypeItem) } },
  }),
  defineEndpoint({
    id: 'notifications.notificators',
    method: 'get',
    path: '/notifications/notificators',
    service: 'ops-api',
    tags,
    access: 'authenticated',
    summary: 'Channels this server can deliver through',
    description: 'mail only when SMTP_URL is configured. announcement=true: channels that can carry an announcement (web, mail).',
    request: { query: z.object({ announcement: queryFlag.optional() }) },
    responses: { 200: { description: 'Channels', schema: z.array(TypeItem) } },
  }),
  defineEndpoint({
    id: 'notifications.test',
    method: 'post',
    path: '/notifications/test',
    service: 'ops-api',
    tags,
    access: 'authenticated',
    companyScoped: true,
    summary: "Send a test notification (to the caller, or through a rule's channels)",
    description: `${testDescription} A rule's test needs the admin or dispatcher role. ${deliveredAnswer}`,
    request: { body: NotificationTestInput.nullish() },
    responses: { 204: { description: 'Delivered through every channel', schema: null } },
  }),
  defineEndpoint({
    id: 'notifications.testChannel',
    method: 'post',
    path: '/notifications/test/{notificator}',
    service: 'ops-api',
    tags,
    access: 'authenticated',
    summary: 'Send a test notification to the caller through one channel',
    description: `As POST /notifications/test without a body, through that channel only: 400 when the server has no such channel or the caller no address on it. ${deliveredAnswer}`,
    request: { params: notificatorParam },
    responses: { 204: { description: 'Delivered', schema: null } },
  }),
  defineEndpoint({
    id: 'notifications.send',
    method: 'post',
    path: '/notifications/send/{notificator}',
    service: 'ops-api',
    tags,
    access: ['admin'],
    summary: 'Send a message to users through one channel (administrators)',
    description:
      "web puts the message in each user's inbox (type announcement); mail sends it to their notification email, else their account email. " +
      `Without userId: every user. The channel must carry announcements (GET /notifications/notificators?announcement=true), else 400. Audited. ${deliveredAnswer}`,
    request: {
      params: notificatorParam,
      query: z.object({ userId: repeated(ref('user', z.coerce.number().int().positive())).optional() }),
      body: NotificationMessage,
    },
    responses: { 204: { description: 'Delivered to every user', schema: null } },
  }),
  defineEndpoint({
    id: 'notifications.links.list',
    method: 'get',
    path: '/notifications/links',
    service: 'ops-api',
    tags,
    access: 'authenticated',
    companyScoped: true,
    summary: 'Links of notification rules to users, devices or groups (Traccar permissions with notificationId)',
    description:
      'notificationId and exactly one of userId, deviceId, groupId; 0 or absent = any. From the rules the caller may see: their recipients, deviceIds and groupIds.',
    request: { query: NotificationLinksQuery },
    responses: { 200: { description: 'Links', schema: z.array(NotificationLink) } },
  }),
  defineEndpoint({
    id: 'notifications.links.create',
    method: 'post',
    path: '/notifications/links',
    service: 'ops-api',
    tags,
    access: trackingWriters,
    companyScoped: true,
    summary: 'Link notification rules to users, devices or groups (all or nothing)',
    description:
      "Adds to each rule's recipients (with the user's email), deviceIds or groupIds, in one transaction. A link that exists answers 409 " +
      'and a repeated item 400, with its index; a user who has no email 400. Audited as an update of the rule.',
    request: { body: z.array(NotificationLink).min(1).max(1000) },
    responses: { 204: { description: 'Linked', schema: null } },
  }),
  defineEndpoint({
    id: 'notifications.links.delete',
    method: 'delete',
    path: '/notifications/links',
    service: 'ops-api',
    tags,
    access: trackingWriters,
    companyScoped: true,
    summary: 'Unlink notification rules from users, devices or groups (all or nothing)',
    description:
      'An absent link answers 404 with its index, and nothing is removed. A rule left without devices (not always) or without recipients ' +
      'for its web or mail channel stays as it is and notifies nobody or nothing until linked again.',
    request: { body: z.array(NotificationLink).min(1).max(1000) },
    responses: { 204: { description: 'Unlinked', schema: null } },
  }),
] as const;
