import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, get, json, renderAt, serveApi, userFixture, type Handler } from '../test/api-stub';
import UsersScreen from './UsersScreen';

/**
 * Users and roles against a stand-in for the API (gateway's users tests prove what the API keeps):
 * a new user needs a password before anything is sent; changing one's own email asks for the
 * current password; an email already taken is said under its field in Swahili; an edit keeps what
 * the form does not show; an empty list and a server down say so.
 */
const ADMIN = userFixture(1, 'Admin', { email: 'admin@corridor.test', roles: ['admin'], attributes: { speedUnit: 'kmh' } });
const NEEMA = userFixture(7, 'Neema', { email: 'neema@corridor.test', roles: ['dispatcher'], attributes: { timezone: 'Africa/Nairobi' } });
const pwani = {
  id: 101,
  name: 'Pwani Freight Movers Ltd',
  country: 'KE',
  kind: 'transporter',
  registrationNumber: null,
  taxPin: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const companies = get('/api/companies', { items: [pwani], total: 1, limit: 1000, offset: 0 });
const users = (list: unknown[]) => get('/api/users', list);
const answer =
  (method: string, path: string, reply: (body: unknown) => Response): Handler =>
  ({ method: m, url, body }) =>
    m === method && url.pathname === path ? reply(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('users and roles', () => {
  it('a new user needs a password before anything is sent; then name, email, roles and company are sent', async () => {
    const served = serveApi(
      users([ADMIN]),
      companies,
      answer('POST', '/api/users', (b) => json(200, { ...NEEMA, ...(b as object), id: 9 })),
    );
    renderAt(<UsersScreen />, { path: '/admin/users', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'New user' }));
    const form = await screen.findByRole('form', { name: 'New user' });
    await within(form).findByRole('option', { name: 'Pwani Freight Movers Ltd' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Juma Clerk' } });
    fireEvent.change(within(form).getByLabelText(/^Email/), { target: { value: 'juma@pwani.test' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Dispatcher' }));
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Company staff' }));
    fireEvent.change(within(form).getByLabelText('Company'), { target: { value: '101' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        within(form)
          .getByLabelText(/^Password/)
          .getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(served.sent.get('POST /api/users')).toBeUndefined();
    fireEvent.change(within(form).getByLabelText(/^Password/), { target: { value: 'short' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter at least 8 characters.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(/^Password/), { target: { value: 'long-enough-secret' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(served.sent.get('POST /api/users')).toEqual([
        { name: 'Juma Clerk', email: 'juma@pwani.test', password: 'long-enough-secret', roles: ['company_user'], companyId: 101 },
      ]),
    );
  });

  it("changing one's own email asks for the current password; an edit keeps what the form does not show", async () => {
    const served = serveApi(
      users([ADMIN, NEEMA]),
      companies,
      answer('PUT', '/api/users/1', (b) => json(200, { ...ADMIN, ...(b as object) })),
    );
    renderAt(<UsersScreen />, { path: '/admin/users', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Admin' }));
    const form = await screen.findByRole('form', { name: 'Edit Admin' });
    fireEvent.change(within(form).getByLabelText(/^Email/), { target: { value: 'boss@corridor.test' } });
    const current = await within(form).findByLabelText(/^Your current password/);
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('Give your current password to change your own password or email.')).toBeTruthy();
    fireEvent.change(current, { target: { value: 'the-old-one' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(served.sent.get('PUT /api/users/1')).toHaveLength(1));
    expect(served.sent.get('PUT /api/users/1')![0]).toMatchObject({
      email: 'boss@corridor.test',
      currentPassword: 'the-old-one',
      attributes: { speedUnit: 'kmh' },
      roles: ['admin'],
    });
  });

  it("an email already taken is said under its field, in Swahili, never the server's words", async () => {
    await i18n.changeLanguage('sw');
    serveApi(
      users([ADMIN, NEEMA]),
      companies,
      answer('PUT', '/api/users/7', () => apiError(409, 'CONFLICT', 'email already registered', { field: 'email' })),
    );
    renderAt(<UsersScreen />, { path: '/admin/users', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Hariri Neema' }));
    const form = await screen.findByRole('form', { name: 'Hariri Neema' });
    fireEvent.click(within(form).getByRole('button', { name: 'Hifadhi' }));
    await waitFor(() =>
      expect(
        within(form)
          .getByLabelText(/^Barua pepe/)
          .getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(form.textContent).not.toMatch(/already registered|email/);
  });

  it('says when no user matches, and when the server is down', async () => {
    serveApi(users([]), companies);
    const empty = renderAt(<UsersScreen />, { path: '/admin/users', user: ADMIN });
    expect(await screen.findByText('No users match')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'postgres is down'));
    renderAt(<UsersScreen />, { path: '/admin/users', user: ADMIN });
    expect(await screen.findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });
});
