import type { EventMessage } from '@corridor/contracts';
import type { NotificationRuleRow } from '../db/schema';

/**
 * Whether a rule covers an event of a device (the calendar is checked separately): same type; the
 * rule's company owns the device (a shared rule covers every device); always, the device listed, or
 * one of the groups in `groupChain` (the device's group and its parents, as Traccar links a group);
 * for alarms, one of the rule's alarms (an event's alarm may be a comma-joined list).
 */
export function ruleMatches(
  rule: NotificationRuleRow,
  event: EventMessage,
  device: { id: number; companyId: number | null },
  groupChain: readonly number[] = [],
): boolean {
  if (rule.type !== event.type) return false;
  if (rule.companyId !== null && rule.companyId !== device.companyId) return false;
  if (!rule.always && !rule.deviceIds.includes(device.id) && !groupChain.some((g) => rule.groupIds.includes(g))) return false;
  if (event.type === 'alarm' && rule.alarms.length) {
    const alarms = typeof event.attributes.alarm === 'string' ? event.attributes.alarm.split(',').map((a) => a.trim()) : [];
    if (!alarms.some((a) => rule.alarms.includes(a))) return false;
  }
  return true;
}
