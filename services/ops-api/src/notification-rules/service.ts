import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import {
  EventType,
  type NotificationDelivery,
  type NotificationRule,
  type NotificationRuleInput,
  type NotificationRulesQuery,
} from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import { calendars, devices, groups, notificationRules, savedCommands, type NotificationRuleRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';
import { resourceService } from '../resources/resource-service';
import { canSee, type Actor } from '../resources/scope';
import type { NotificationDispatcher } from './dispatcher';
import { mailUnavailable } from './mail-unavailable';
import { toNotificationRule, withTraccarDefaults } from './traccar-shape';
import { noInternalReceivers, savedUrlRefusal, type OutboundPolicy } from './outbound-address';

/** Notification rules (CRUD with cross-field checks), the type and channel lists, and the test send. */
export function notificationRulesService(deps: {
  db: Orm;
  dispatcher: NotificationDispatcher;
  mailEnabled: boolean;
  webhookPolicy?: OutboundPolicy;
}) {
  const { db } = deps;
  const webhookPolicy = deps.webhookPolicy ?? noInternalReceivers;
  const crud = resourceService<NotificationRuleRow, NotificationRule, NotificationRuleInput, z.output<typeof NotificationRulesQuery>>(db, {
    name: 'Notification rule',
    entityType: 'notification_rule',
    table: notificationRules,
    company: notificationRules.companyId,
    shared: false,
    keywordColumns: [notificationRules.description],
    filters: (q) => [
      q.type ? eq(notificationRules.type, q.type) : undefined,
      q.deviceId !== undefined
        ? sql`(${notificationRules.always} or ${notificationRules.deviceIds} @> ${JSON.stringify([q.deviceId])}::jsonb)`
        : undefined,
      q.groupId !== undefined
        ? sql`(${notificationRules.always} or ${notificationRules.groupIds} @> ${JSON.stringify([q.groupId])}::jsonb or exists (select 1 from ${devices} where ${devices.groupId} = ${q.groupId} and ${notificationRules.deviceIds} @> jsonb_build_array(${devices.id})))`
        : undefined,
      q.userId !== undefined ? sql`${notificationRules.recipients} @> ${JSON.stringify([{ userId: q.userId }])}::jsonb` : undefined,
    ],
    toEntity: toNotificationRule,
    toValues: (i, companyId) => ({
      type: i.type,
      description: i.description,
      always: i.always,
      deviceIds: [...new Set(i.deviceIds)],
      groupIds: [...new Set(i.groupIds)],
      commandId: i.notificators.includes('command') ? i.commandId : null,
      alarms: i.type === 'alarm' ? i.alarms : [],
      notificators: [...new Set(i.notificators)],
      recipients: i.recipients,
      webhookUrl: i.webhookUrl,
      calendarId: i.calendarId,
      companyId,
      attributes: i.attributes,
    }),
    async validate(i, companyId, actor) {
      if (i.notificators.includes('mail') && !deps.mailEnabled) throw mailUnavailable('body', 'notificators');
      if ((i.notificators.includes('mail') || i.notificators.includes('web')) && !i.recipients.length) {
        throw invalidField('recipients', 'the web and mail channels need at least one recipient', { reason: 'recipientsNeeded' });
      }
      if (i.notificators.includes('webhook') && !i.webhookUrl)
        throw invalidField('webhookUrl', 'the webhook channel needs a webhookUrl', { reason: 'webhookNeeded' });
      // a literal internal address is refused on save; a name is checked when it is resolved, at each delivery
      const refused = i.webhookUrl ? savedUrlRefusal(i.webhookUrl, webhookPolicy) : undefined;
      if (refused) throw invalidField('webhookUrl', refused, { reason: 'webhookNotPublic' });
      if (i.alarms.length && i.type !== 'alarm')
        throw invalidField('alarms', 'alarms only apply to rules of type alarm', { reason: 'alarmsOnlyForAlarm' });
      // a rule that is not always and links no device yet notifies nothing until linked (Traccar's clients save, then link through /permissions)
      if (i.notificators.includes('command') && i.commandId === null)
        throw invalidField('commandId', 'the command channel needs a saved command (commandId)', { reason: 'savedCommandNeeded' });
      if (i.commandId !== null) {
        const [c] = await db.select({ companyId: savedCommands.companyId }).from(savedCommands).where(eq(savedCommands.id, i.commandId));
        if (!c || (c.companyId !== null && companyId !== null && c.companyId !== companyId))
          throw invalidField('commandId', `saved command ${i.commandId} does not exist`);
      }
      if (i.groupIds.length) {
        const found = await db.select({ id: groups.id, companyId: groups.companyId }).from(groups).where(inArray(groups.id, i.groupIds));
        const ok = new Set(found.filter((g) => companyId === null || g.companyId === companyId).map((g) => g.id));
        const bad = i.groupIds.find((g) => !ok.has(g));
        if (bad !== undefined)
          throw invalidField('groupIds', `group ${bad} does not exist${companyId !== null ? ` in company ${companyId}` : ''}`);
      }
      if (i.deviceIds.length) {
        const found = await db
          .select({ id: devices.id, companyId: devices.companyId })
          .from(devices)
          .where(inArray(devices.id, i.deviceIds));
        const ok = new Set(found.filter((d) => companyId === null || d.companyId === companyId).map((d) => d.id));
        const bad = i.deviceIds.find((d) => !ok.has(d));
        if (bad !== undefined)
          throw invalidField('deviceIds', `device ${bad} does not exist${companyId !== null ? ` in company ${companyId}` : ''}`);
      }
      if (i.calendarId !== null) {
        const [c] = await db.select().from(calendars).where(eq(calendars.id, i.calendarId));
        if (!c || !canSee(c.companyId, actor.identity, true) || (companyId !== null && c.companyId !== null && c.companyId !== companyId)) {
          throw invalidField('calendarId', `calendar ${i.calendarId} does not exist`);
        }
      }
    },
  });

  return {
    ...crud,
    create: (i: NotificationRuleInput, actor: Actor) => crud.create(withTraccarDefaults(i, actor.identity), actor),
    update: (id: number, i: NotificationRuleInput, actor: Actor) => crud.update(id, withTraccarDefaults(i, actor.identity), actor),
    types: (): { type: string }[] => EventType.options.map((type) => ({ type })),
    notificators: (announcement?: boolean): { type: string }[] =>
      (['web', ...(deps.mailEnabled ? ['mail'] : []), ...(announcement ? [] : ['webhook', 'command'])] as string[]).map((type) => ({
        type,
      })),
    /** Sends a test message through every channel of the rule to every recipient now. */
    async test(ruleId: number, actor: Actor): Promise<NotificationDelivery[]> {
      const rule = await crud.getRow(ruleId, actor.identity);
      const id = `test-${randomUUID()}`;
      const msg = {
        subject: `Test notification: ${rule.description ?? rule.type}`,
        body: `This is a test of notification rule ${rule.id} (${rule.type}), sent by ${actor.identity.email}.`,
      };
      const deliveries = await deps.dispatcher.deliver(
        rule,
        id,
        msg,
        { test: true, rule: { id: rule.id, type: rule.type }, message: msg },
        false,
      );
      await audit.record(db, actor.identity, {
        action: 'notification_rule.test',
        entityType: 'notification_rule',
        entityId: rule.id,
        companyId: rule.companyId,
        after: deliveries,
        requestId: actor.requestId,
      });
      return deliveries;
    },
  };
}
export type NotificationRulesService = ReturnType<typeof notificationRulesService>;
