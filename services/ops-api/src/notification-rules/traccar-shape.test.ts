import { describe, expect, it } from 'vitest';
import { NotificationRuleInput } from '@corridor/contracts';
import type { NotificationRuleRow } from '../db/schema';
import { toNotificationRule, withTraccarDefaults } from './traccar-shape';

const caller = { userId: 41, email: 'desk@company-a.test' };
const input = (body: Record<string, unknown>) => NotificationRuleInput.parse({ type: 'alarm', always: true, ...body });

describe("notification rules in Traccar's shape", () => {
  it('reads notificators written as Traccar does ("web,mail") or as a list', () => {
    expect(input({ notificators: 'web, mail' }).notificators).toEqual(['web', 'mail']);
    expect(input({ notificators: ['webhook'] }).notificators).toEqual(['webhook']);
    expect(NotificationRuleInput.safeParse({ type: 'alarm', notificators: 'web,sms' }).success).toBe(false);
    expect(NotificationRuleInput.safeParse({ type: 'alarm', notificators: '' }).success).toBe(false);
  });

  it('takes the alarms from attributes.alarms, which win over the alarms list, and keeps them out of the stored attributes', () => {
    const r = withTraccarDefaults(
      input({ notificators: 'web', alarms: ['sos'], attributes: { alarms: 'powerCut, lowBattery', color: 'red' } }),
      caller,
    );
    expect(r.alarms).toEqual(['powerCut', 'lowBattery']);
    expect(r.attributes).toEqual({ color: 'red' });
    expect(withTraccarDefaults(input({ notificators: 'web', alarms: ['sos'] }), caller).alarms).toEqual(['sos']);
    expect(() => withTraccarDefaults(input({ notificators: 'web', attributes: { alarms: 'sos,nonsense' } }), caller)).toThrow(
      /attributes\.alarms/,
    );
  });

  it('links a rule without recipients to its creator for the web and mail channels only', () => {
    expect(withTraccarDefaults(input({ notificators: 'web' }), caller).recipients).toEqual([caller]);
    const named = [{ userId: 9, email: 'night@company-a.test' }];
    expect(withTraccarDefaults(input({ notificators: 'mail', recipients: named }), caller).recipients).toEqual(named);
    expect(withTraccarDefaults(input({ notificators: 'webhook', webhookUrl: 'https://hooks.example.test/x' }), caller).recipients).toEqual(
      [],
    );
    expect(() => withTraccarDefaults(input({ notificators: 'web' }), { userId: 1, email: 'admin' })).toThrow(/recipients/);
  });

  it('answers notificators as "web,mail" and the alarms also in attributes.alarms', () => {
    const row = {
      id: 3,
      type: 'alarm',
      description: null,
      always: true,
      deviceIds: [],
      groupIds: [],
      commandId: null,
      alarms: ['sos', 'powerCut'],
      notificators: ['web', 'mail'],
      recipients: [caller],
      webhookUrl: null,
      calendarId: null,
      companyId: 101,
      attributes: { color: 'red' },
      createdAt: new Date(),
      updatedAt: new Date(),
    } as NotificationRuleRow;
    expect(toNotificationRule(row)).toMatchObject({
      notificators: 'web,mail',
      alarms: ['sos', 'powerCut'],
      attributes: { color: 'red', alarms: 'sos,powerCut' },
    });
    expect(toNotificationRule({ ...row, alarms: [] }).attributes).toEqual({ color: 'red' });
  });
});
