import { z } from 'zod';
import { AlarmType, type NotificationRule, type NotificationRuleInput } from '@corridor/contracts';
import type { NotificationRuleRow } from '../db/schema';
import { invalidField } from '../resources/pg-errors';

/** A rule as Traccar shows it (notificators "web,mail", alarms also in attributes.alarms), with Corridor's inline links. */
export const toNotificationRule = (r: NotificationRuleRow): NotificationRule => ({
  id: r.id,
  type: r.type as NotificationRule['type'],
  description: r.description,
  always: r.always,
  notificators: r.notificators.join(','),
  calendarId: r.calendarId ?? 0,
  attributes: r.alarms.length ? { ...r.attributes, alarms: r.alarms.join(',') } : r.attributes,
  deviceIds: r.deviceIds,
  groupIds: r.groupIds,
  commandId: r.commandId ?? 0,
  alarms: r.alarms as NotificationRule['alarms'],
  recipients: r.recipients,
  webhookUrl: r.webhookUrl,
  companyId: r.companyId,
});

/**
 * What a Traccar client writes its own way: the alarms in attributes.alarms ("sos,powerCut"),
 * which win over `alarms` when present (a Traccar client sends back the `alarms` it read unchanged)
 * and are stored in `alarms` only; and no recipients (Traccar links a new rule to its creator: the
 * caller receives the web and mail channels).
 */
export function withTraccarDefaults(i: NotificationRuleInput, who: { userId: number; email: string }): NotificationRuleInput {
  let { alarms, recipients } = i;
  const { alarms: named, ...attributes } = i.attributes;
  if (named !== undefined && named !== null) {
    const parsed = z.array(AlarmType).safeParse(
      typeof named === 'string'
        ? named
            .split(',')
            .map((a) => a.trim())
            .filter(Boolean)
        : named,
    );
    if (!parsed.success) throw invalidField('attributes.alarms', `comma-separated alarms, each one of ${AlarmType.options.join(', ')}`);
    alarms = parsed.data;
  }
  if (!recipients.length && i.notificators.some((n) => n === 'web' || n === 'mail')) {
    if (!z.email().safeParse(who.email).success)
      throw invalidField('recipients', 'name the recipients: your account has no email address to link the rule to');
    recipients = [{ userId: who.userId, email: who.email }];
  }
  return { ...i, alarms, recipients, attributes };
}
