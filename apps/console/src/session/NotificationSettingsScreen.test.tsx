import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { notificationsEndpoints, notificationTypes, type NotificationSettings } from '@corridor/contracts/notifications';
import type { User } from '@corridor/contracts/users';
import { notificationRulesEndpoints } from '@corridor/contracts/notification-rules';
import { endpoint } from '../api/endpoint';
import { i18n } from '../i18n/i18n';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import NotificationSettingsScreen from './NotificationSettingsScreen';
import { UserContext } from './user-context';

/**
 * The settings screen against a stand-in for the API (fetch answered here: component tests run
 * without the services). The browser test notification-settings.e2e covers the real stack, which has
 * no mail channel; here the server's answers vary: with mail, and without mail but with an email
 * switch saved on while it had one.
 */
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const user = { id: 12, name: 'Neema', email: 'neema@corridor.test' } as User;

function serve(opts: { mail: boolean; emailOn: string[] }): { saved: NotificationSettings['channels'][] } {
  const saved: NotificationSettings['channels'][] = [];
  let channels = Object.fromEntries(
    notificationTypes.map((t) => [t, { web: true, email: opts.emailOn.includes(t), webhook: false }]),
  ) as NotificationSettings['channels'];
  let pendingEmail: string | null = null;
  const settings = () => ({ channels, email: null, pendingEmail, webhookUrl: null, updatedAt: '2026-11-25T10:00:00.000Z' });
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url.startsWith('/api/notifications/notificators'))
      return json(200, [{ type: 'web' }, ...(opts.mail ? [{ type: 'mail' }] : []), { type: 'webhook' }, { type: 'command' }]);
    if (url === '/api/settings/notification' && init?.method === 'PUT') {
      const body = JSON.parse(init.body as string) as { channels: NotificationSettings['channels']; email?: string | null };
      channels = { ...channels, ...body.channels };
      if (body.email !== undefined) pendingEmail = body.email; // as the server: a new address waits for its link
      saved.push(channels);
      return json(200, settings());
    }
    if (url === '/api/settings/notification') return json(200, settings());
    return json(404, { error: { code: 'NOT_FOUND', message: url } });
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <UserContext.Provider value={user}>
          <NotificationSettingsScreen />
        </UserContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { saved };
}
const box = (name: string) => screen.findByRole<HTMLInputElement>('checkbox', { name });
const reason = /Email is not available: this server has no mail channel/;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('notification settings screen', () => {
  it('with a mail channel, every email switch can be turned on and is saved', async () => {
    const { saved } = serve({ mail: true, emailOn: [] });
    const email = await box('Complaint filed: Email');
    expect(email.disabled).toBe(false);
    expect(screen.queryByText(reason)).toBeNull();
    fireEvent.click(email);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Settings saved.');
    expect(saved.at(-1)!.complaintFiled).toEqual({ web: true, email: true, webhook: false });
  });

  it('without one, an email switch is disabled with the reason, except one already on, which can be turned off', async () => {
    const { saved } = serve({ mail: false, emailOn: ['sanctionRecorded'] });
    const off = await box('Certificate approved: Email');
    expect(off.disabled).toBe(true);
    expect(off.title).toMatch(reason);
    expect(screen.getByText(reason).id).toBe(off.getAttribute('aria-describedby'));
    const on = await box('Sanction recorded: Email');
    expect(on.disabled).toBe(false);
    expect(on.checked).toBe(true);
    fireEvent.click(on);
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText('Settings saved.');
    expect(saved.at(-1)!.sanctionRecorded.email).toBe(false);
    // once off, it is locked like the others
    await waitFor(() => expect(on.disabled).toBe(true));
  });

  it('a new address waits for its link: the screen says where mail goes until it is opened (issue 23)', async () => {
    serve({ mail: true, emailOn: [] });
    await box('Complaint filed: Email');
    const address = document.querySelector<HTMLInputElement>('input[type=email]')!;
    fireEvent.change(address, { target: { value: 'desk@athi.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await screen.findByText(
      'We sent a link to desk@athi.example. Notices are mailed there once you open it (within a day); until then they go to neema@corridor.test.',
    );
    expect(address.value).toBe('desk@athi.example');
  });

  it('settings the server cannot give are said once, in English and in Swahili', async () => {
    const notificators = answer(endpoint(notificationRulesEndpoints, 'notifications.notificators'), [{ type: 'web' }]);
    const down = refuse(endpoint(notificationsEndpoints, 'notificationSettings.get'), 'UNAVAILABLE');
    serveApi(notificators, down);
    const view = renderAt(<NotificationSettingsScreen />, { path: '/account/notifications', user });
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
    view.unmount();
    await i18n.changeLanguage('sw');
    serveApi(notificators, down);
    renderAt(<NotificationSettingsScreen />, { path: '/account/notifications', user });
    await saidOnce(swahili('errors.unavailable'));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(swahili('noticeSettings.title'));
  });
});
