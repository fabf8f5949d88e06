import { describe, expect, it } from 'vitest';
import { EventMessage } from '@corridor/contracts';
import type { NotificationRuleRow } from '../db/schema';
import { ruleMatches } from './matching';

const rule = (over: Partial<NotificationRuleRow>): NotificationRuleRow => ({
  id: 1,
  type: 'alarm',
  description: null,
  always: true,
  deviceIds: [],
  groupIds: [],
  commandId: null,
  alarms: [],
  notificators: ['web'],
  recipients: [],
  webhookUrl: null,
  calendarId: null,
  companyId: 101,
  attributes: {},
  createdAt: new Date(),
  updatedAt: new Date(),
  ...over,
});
const event = (type: string, attributes: Record<string, unknown> = {}) =>
  EventMessage.parse({ id: 'e', type, eventTime: '2026-01-01T00:00:00Z', deviceId: 7, attributes });
const device = { id: 7, companyId: 101 };

describe('rule matching', () => {
  it("needs the same type and a device of the rule's company (any company for a shared rule)", () => {
    expect(ruleMatches(rule({}), event('alarm'), device)).toBe(true);
    expect(ruleMatches(rule({}), event('ignitionOn'), device)).toBe(false);
    expect(ruleMatches(rule({}), event('alarm'), { id: 7, companyId: 202 })).toBe(false);
    expect(ruleMatches(rule({ companyId: null }), event('alarm'), { id: 7, companyId: 202 })).toBe(true);
  });

  it('covers listed devices only unless always', () => {
    expect(ruleMatches(rule({ always: false, deviceIds: [8] }), event('alarm'), device)).toBe(false);
    expect(ruleMatches(rule({ always: false, deviceIds: [8, 7] }), event('alarm'), device)).toBe(true);
  });

  it('filters alarms, reading comma-joined alarm lists', () => {
    const sos = rule({ alarms: ['sos'] });
    expect(ruleMatches(sos, event('alarm', { alarm: 'sos' }), device)).toBe(true);
    expect(ruleMatches(sos, event('alarm', { alarm: 'powerCut, sos' }), device)).toBe(true);
    expect(ruleMatches(sos, event('alarm', { alarm: 'powerCut' }), device)).toBe(false);
    expect(ruleMatches(sos, event('alarm'), device)).toBe(false);
    expect(ruleMatches(rule({ alarms: [] }), event('alarm', { alarm: 'tow' }), device)).toBe(true);
  });
});
