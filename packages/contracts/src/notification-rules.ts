import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes } from './common';
import { AlarmType, EventType } from './events';
import { queryFlag, ListQuery, OwnerCompanyInput, resourceEndpoints, trackingWriters, TypeItem } from './resource-endpoints';

/**
 * Traccar-style notification rules (the user's inbox is GET /notifications, a different resource):
 * a rule says which event type (and, for type alarm, which alarms) of which devices notify which
 * users through which channels. Channels (Traccar "notificators"): web (the recipients' inbox),
 * mail (SMTP, to each recipient's email) and webhook (an HTTP POST of the event to webhookUrl,
 * retried with backoff). A company's rule covers that company's devices only.
 */
export const Notificator = z.enum(['web', 'mail', 'webhook']);
export type Notificator = z.infer<typeof Notificator>;

export const NotificationRecipient = z
  .object({ userId: ref('user', z.number().int().positive()), email: z.email().max(254) })
  .meta({ id: 'NotificationRecipient' });

export const NotificationRule = z
  .object({
    id: z.number().int().positive(),
    type: EventType,
    description: z.string().nullable(),
    always: z.boolean().describe('Every device the rule\'s company owns (every device for a shared rule); else only deviceIds'),
    deviceIds: z.array(z.number().int()),
    alarms: z.array(AlarmType).describe('For type alarm: the alarms that notify (empty = any)'),
    notificators: z.array(Notificator),
    recipients: z.array(NotificationRecipient),
    webhookUrl: z.string().nullable(),
    calendarId: z.number().int().nullable().describe('Only notify while this calendar has an event running'),
    companyId: z.number().int().nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'NotificationRule' });
export type NotificationRule = z.infer<typeof NotificationRule>;

export const NotificationRuleInput = z
  .object({
    type: EventType,
    description: z.string().max(500).nullable().default(null),
    always: z.boolean().default(false),
    deviceIds: z.array(ref('device', z.number().int().positive())).max(1000).default([]),
    alarms: z.array(AlarmType).default([]),
    notificators: z.array(Notificator).min(1),
    recipients: z.array(NotificationRecipient).max(100).default([]),
    webhookUrl: z.url({ protocol: /^https?$/ }).max(2000).nullable().default(null),
    calendarId: ref('calendar', z.number().int().positive()).nullable().default(null),
    companyId: OwnerCompanyInput,
    attributes: Attributes.default({}),
  })
  .meta({ id: 'NotificationRuleInput' });
export type NotificationRuleInput = z.infer<typeof NotificationRuleInput>;

export const NotificationRulesQuery = ListQuery.extend({
  type: EventType.optional(),
  deviceId: ref('device', z.coerce.number().int().positive()).optional().describe('Rules covering that device (always or listed)'),
});

export const NotificationTestInput = z
  .object({ ruleId: ref('notificationRule', z.number().int().positive()) })
  .meta({ id: 'NotificationTestInput' });

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

const tags = ['notifications'];
export const notificationRulesEndpoints = [
  ...resourceEndpoints({
    id: 'notifications.rules', path: '/notifications/rules', noun: 'notification rule', kind: 'notificationRule', tags, entity: NotificationRule,
    input: NotificationRuleInput, query: NotificationRulesQuery, write: trackingWriters, companyScoped: true,
    description: 'mail needs at least one recipient, webhook needs webhookUrl, a rule that is not always needs deviceIds (400 naming the field). ' +
      'webhookUrl reaches public addresses only (loopback, private, link-local and metadata addresses are refused on save when literal, and at ' +
      'every delivery after resolving a name), unless on the server\'s WEBHOOK_ALLOW list. Keyword searches the description.',
  }),
  defineEndpoint({
    id: 'notifications.types', method: 'get', path: '/notifications/types', service: 'ops-api', tags, access: 'authenticated',
    summary: 'Event types a rule may notify', responses: { 200: { description: 'Types', schema: z.array(TypeItem) } },
  }),
  defineEndpoint({
    id: 'notifications.notificators', method: 'get', path: '/notifications/notificators', service: 'ops-api', tags, access: 'authenticated',
    summary: 'Channels this server can deliver through', description: 'mail only when SMTP_URL is configured. announcement=true: channels that can carry an announcement (web, mail).',
    request: { query: z.object({ announcement: queryFlag.optional() }) },
    responses: { 200: { description: 'Channels', schema: z.array(TypeItem) } },
  }),
  defineEndpoint({
    id: 'notifications.test', method: 'post', path: '/notifications/test', service: 'ops-api', tags, access: trackingWriters, companyScoped: true,
    summary: 'Send a test notification through a rule\'s channels',
    description: 'Delivers a test message to each recipient and channel of the rule now, and answers what happened to each delivery; ' +
      'a webhook is tried once and answers only sent or failed (error "not delivered"), never the receiver\'s answer.',
    request: { body: NotificationTestInput },
    responses: { 200: { description: 'Deliveries', schema: z.array(NotificationDelivery) } },
  }),
] as const;
