import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationRule } from '@corridor/contracts/notification-rules';
import type { User } from '@corridor/contracts/users';
import { apiError, deviceFixture, DISPATCHER, get, json, renderAt, serveApi, type Handler } from '../../test/api-stub';
import { i18n } from '../../i18n/i18n';
import { swahili } from '../../test/contract-api';
import NotificationRulesScreen from './NotificationRulesScreen';

/** The rules screen against a stand-in for the API keeping rules in memory, its answers varied by the test. */
const rule = (id: number, over: Partial<NotificationRule> = {}): NotificationRule => ({
  id,
  type: 'alarm',
  description: null,
  always: true,
  notificators: 'web',
  calendarId: 0,
  attributes: {},
  deviceIds: [],
  groupIds: [],
  commandId: 0,
  alarms: ['sos'],
  recipients: [{ userId: 12, email: 'neema@corridor.test' }],
  webhookUrl: null,
  companyId: null,
  ...over,
});
const common: Handler[] = [
  get('/api/devices', [deviceFixture(7, 'Truck 07'), deviceFixture(8, 'Truck 08')]),
  get('/api/groups', [{ id: 3, name: 'Mombasa fleet', groupId: 0, attributes: {}, companyId: 101 }]),
  get('/api/calendars', []),
  get('/api/commands', []),
  get(
    '/api/notifications/types',
    ['alarm', 'geofenceEnter', 'deviceOverspeed'].map((type) => ({ type })),
  ),
  get(
    '/api/notifications/notificators',
    ['web', 'webhook'].map((type) => ({ type })),
  ),
];

/** What the server stores of a written rule: its channels joined, no calendar or command as 0 (Traccar's none). */
const stored = (body: unknown): Partial<NotificationRule> => {
  const b = body as Partial<NotificationRule> & { notificators: string[] };
  return { ...b, notificators: b.notificators.join(','), calendarId: b.calendarId ?? 0, commandId: b.commandId ?? 0 };
};

function rulesApi(initial: NotificationRule[], onWrite?: (method: string, body: unknown) => Response | undefined) {
  let rules = [...initial];
  const handler: Handler = ({ method, url, body }) => {
    if (url.pathname === '/api/notifications' && method === 'GET') return json(200, rules);
    if (url.pathname === '/api/notifications' && method === 'POST') {
      const refused = onWrite?.(method, body);
      if (refused) return refused;
      const created = rule(rules.length + 100, stored(body));
      rules = [...rules, created];
      return json(200, created);
    }
    const m = /^\/api\/notifications\/(\d+)$/.exec(url.pathname);
    if (m && method === 'PUT') {
      const refused = onWrite?.(method, body);
      if (refused) return refused;
      rules = rules.map((r) => (r.id === Number(m[1]) ? { ...r, ...stored(body) } : r));
      return json(
        200,
        rules.find((r) => r.id === Number(m[1])),
      );
    }
    return undefined;
  };
  return handler;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});
const show = (user?: User) => renderAt(<NotificationRulesScreen />, { path: '/alert-rules', user });

describe('alert rules', () => {
  it('starts empty, then a rule for every SOS of every truck to the console is saved and listed', async () => {
    const { sent } = serveApi(...common, rulesApi([]));
    show();
    await screen.findByText('No alert rules yet');
    fireEvent.click(screen.getByRole('button', { name: 'New rule' }));
    const form = await screen.findByRole('form', { name: 'New rule' });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'SOS' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save the rule' }));
    await screen.findByRole('cell', { name: 'Alarm: SOS' });
    expect(sent.get('POST /api/notifications')).toEqual([
      // checked by the contract's schema, its defaults filled in: no recipients means the author (the API's rule)
      {
        type: 'alarm',
        alarms: ['sos'],
        always: true,
        deviceIds: [],
        groupIds: [],
        notificators: ['web'],
        webhookUrl: null,
        commandId: null,
        calendarId: null,
        description: null,
        recipients: [],
        companyId: null,
        attributes: {},
      },
    ]);
    const row = screen.getByRole('cell', { name: 'Alarm: SOS' }).closest('tr')!;
    expect(within(row).getByText('Every truck')).toBeTruthy();
    expect(within(row).getByText('Console')).toBeTruthy();
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('says what is missing under each field: trucks when not every truck, at least one channel', async () => {
    const { sent } = serveApi(...common, rulesApi([]));
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'New rule' }));
    const form = await screen.findByRole('form', { name: 'New rule' });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Every truck' }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Console' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Save the rule' }));
    const trucks = await within(form).findByLabelText('Trucks');
    await waitFor(() => expect(trucks.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(trucks.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent).toBe(
      'Choose at least one truck or group, or every truck.',
    );
    const channels = within(form).getByRole('group', { name: 'Channels' });
    expect(within(channels).getByText('Choose at least one.')).toBeTruthy();
    expect(within(channels).getByRole('checkbox', { name: 'Webhook' }).getAttribute('aria-invalid')).toBe('true');
    expect(sent.get('POST /api/notifications')).toBeUndefined();
  });

  it("puts the server's refusal under the field it names (a webhook to a private address)", async () => {
    serveApi(
      ...common,
      rulesApi([], () =>
        apiError(400, 'VALIDATION_FAILED', 'body.webhookUrl: not a public address', [
          {
            in: 'body',
            path: 'webhookUrl',
            message: 'webhookUrl must reach a public address (10.0.0.5 is private)',
            reason: 'webhookNotPublic',
          },
        ]),
      ),
    );
    show();
    fireEvent.click(await screen.findByRole('button', { name: 'New rule' }));
    const form = await screen.findByRole('form', { name: 'New rule' });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Webhook' }));
    fireEvent.change(await within(form).findByLabelText('Webhook address'), { target: { value: 'https://10.0.0.5/hook' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save the rule' }));
    const url = within(form).getByLabelText('Webhook address');
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('The webhook must reach a public address; this one is on an internal network.')).toBeTruthy();
  });

  it('changes a rule for some trucks and keeps who it notifies', async () => {
    const { sent } = serveApi(...common, rulesApi([rule(5, { always: false, deviceIds: [7], type: 'deviceOverspeed', alarms: [] })]));
    show();
    const row = (await screen.findByRole('cell', { name: 'Overspeed' })).closest('tr')!;
    expect(within(row).getByText('Truck 07')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Change the rule Overspeed' }));
    const form = await screen.findByRole('form', { name: 'Change the rule' });
    const trucks = within(form).getByLabelText('Trucks') as HTMLSelectElement;
    expect([...trucks.options].filter((o) => o.selected).map((o) => o.textContent)).toEqual(['Truck 07']);
    await userEvent.selectOptions(trucks, ['8']);
    fireEvent.click(within(form).getByRole('button', { name: 'Save the rule' }));
    await waitFor(() =>
      expect(within(screen.getByRole('cell', { name: 'Overspeed' }).closest('tr')!).getByText('Truck 07, Truck 08')).toBeTruthy(),
    );
    expect(sent.get('PUT /api/notifications/5')).toEqual([
      expect.objectContaining({ deviceIds: [7, 8], recipients: [{ userId: 12, email: 'neema@corridor.test' }], companyId: null }),
    ]);
  });

  it('shows a failed list with a retry, and offers no changes to a role that may not make them', async () => {
    let fail = true;
    serveApi(...common, ({ url, method }) =>
      url.pathname === '/api/notifications' && method === 'GET'
        ? fail
          ? apiError(503, 'UNAVAILABLE', 'The database does not answer')
          : json(200, [rule(1)])
        : undefined,
    );
    show({ ...DISPATCHER, roles: ['company_user'], companyId: 101 } as User);
    await screen.findByText('The server is busy or a part of it is down. Try again in a moment.');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByRole('cell', { name: 'Alarm: SOS' });
    expect(screen.queryByRole('button', { name: 'New rule' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Change the rule/ })).toBeNull();
  });

  it('in Swahili, the empty list and a rule read in Swahili', async () => {
    serveApi(...common, rulesApi([]));
    await i18n.changeLanguage('sw');
    const view = show();
    expect(await screen.findByText(swahili('rules.empty'))).toBeTruthy();
    view.unmount();
    serveApi(...common, rulesApi([rule(1)]));
    show();
    const cell = await screen.findByRole('cell', { name: `${swahili('eventType.alarm')}: ${swahili('alarmType.sos')}` });
    expect(within(cell.closest('tr')!).getByText(swahili('rules.allTrucks'))).toBeTruthy();
  });
});
