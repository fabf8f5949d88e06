import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, get, json, renderAt, serveApi, type Handler } from '../test/api-stub';
import ComputedAttributesScreen from './ComputedAttributesScreen';
import DriversScreen from './DriversScreen';
import GroupsScreen from './GroupsScreen';
import MaintenanceScreen from './MaintenanceScreen';
import { ADMIN } from '../test/fixtures';

/**
 * Groups, drivers, maintenance and computed attributes against a stand-in for the API (ops-api's
 * resource tests prove the API keeps what is sent): each adds and edits on a form checked by the
 * contract, sends what the API takes (maintenance in metres and milliseconds), says a refusal
 * under its field in the reader's language, asks before deleting, and says when the list is empty
 * or the server is down.
 */
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
const mombasa = { id: 5, name: 'Mombasa fleet', groupId: 0, companyId: 101, attributes: { colour: 'blue' } };
const upcountry = { id: 6, name: 'Upcountry', groupId: 5, companyId: 101, attributes: {} };
const answer =
  (method: string, path: string, reply: (body: unknown) => Response): Handler =>
  ({ method: m, url, body }) =>
    m === method && url.pathname === path ? reply(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('device groups', () => {
  it('lists groups with their parent and company, and edits one keeping its attributes', async () => {
    const served = serveApi(
      get('/api/groups', [mombasa, upcountry]),
      companies,
      answer('PUT', '/api/groups/5', (b) => json(200, { ...mombasa, name: (b as { name: string }).name })),
    );
    renderAt(<GroupsScreen />, { path: '/admin/groups', user: ADMIN });
    const table = await screen.findByRole('table', { name: 'Device groups' });
    const row = (await within(table).findByText('Upcountry')).closest('tr')!;
    expect(row.textContent).toContain('Mombasa fleet');
    expect(row.textContent).toContain('Pwani Freight Movers Ltd');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Mombasa fleet' }));
    const form = await screen.findByRole('form', { name: 'Edit Mombasa fleet' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Mombasa port fleet' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(served.sent.get('PUT /api/groups/5')).toEqual([
        { name: 'Mombasa port fleet', groupId: null, companyId: 101, attributes: { colour: 'blue' } },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Mombasa fleet' })).toBeNull());
  });

  it("adds a group inside another: the body is the contract's GroupInput", async () => {
    const served = serveApi(
      get('/api/groups', [mombasa]),
      companies,
      answer('POST', '/api/groups', () => json(200, { id: 9, name: 'Night shift', groupId: 5, companyId: 101, attributes: {} })),
    );
    renderAt(<GroupsScreen />, { path: '/admin/groups', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'New group' }));
    const form = await screen.findByRole('form', { name: 'New group' });
    await within(form).findByRole('option', { name: 'Mombasa fleet' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Night shift' } });
    fireEvent.change(within(form).getByLabelText('Inside group'), { target: { value: '5' } });
    fireEvent.change(within(form).getByLabelText('Company'), { target: { value: '101' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(served.sent.get('POST /api/groups')).toEqual([{ name: 'Night shift', groupId: 5, companyId: 101, attributes: {} }]),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New group' })).toBeNull());
  });

  it('a group that would contain itself is refused under its field, in Swahili, once', async () => {
    await i18n.changeLanguage('sw');
    serveApi(
      get('/api/groups', [mombasa, upcountry]),
      companies,
      answer('PUT', '/api/groups/5', () =>
        apiError(400, 'VALIDATION_FAILED', 'groupId: a group cannot be inside itself', [
          { in: 'body', path: 'groupId', code: 'custom', message: 'a group cannot be inside itself' },
        ]),
      ),
    );
    renderAt(<GroupsScreen />, { path: '/admin/groups', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Hariri Mombasa fleet' }));
    const form = await screen.findByRole('form', { name: 'Hariri Mombasa fleet' });
    await within(form).findByRole('option', { name: 'Upcountry' });
    fireEvent.change(within(form).getByLabelText('Ndani ya kundi'), { target: { value: '6' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Hifadhi' }));
    const parent = within(form).getByLabelText('Ndani ya kundi');
    await waitFor(() => expect(parent.getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).not.toMatch(/groupId|cannot be inside/);
  });

  it('asks before deleting, and deletes only when confirmed', async () => {
    const served = serveApi(
      get('/api/groups', [mombasa]),
      companies,
      answer('DELETE', '/api/groups/5', () => new Response(null, { status: 204 })),
    );
    const confirm = vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true);
    vi.stubGlobal('confirm', confirm);
    renderAt(<GroupsScreen />, { path: '/admin/groups', user: ADMIN });
    const del = await screen.findByRole('button', { name: 'Delete Mombasa fleet' });
    fireEvent.click(del);
    expect(confirm).toHaveBeenLastCalledWith('Delete group Mombasa fleet? Its devices stay, without a group.');
    expect(served.asked.some((a) => a.startsWith('DELETE'))).toBe(false);
    fireEvent.click(del);
    await waitFor(() => expect(served.asked).toContain('DELETE /api/groups/5'));
  });

  it('says when there are no groups, and when the server is down', async () => {
    serveApi(get('/api/groups', []), companies);
    const empty = renderAt(<GroupsScreen />, { path: '/admin/groups', user: ADMIN });
    expect(await screen.findByText('No device groups yet')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'postgres is down'));
    renderAt(<GroupsScreen />, { path: '/admin/groups', user: ADMIN });
    expect(await screen.findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });
});

describe('drivers', () => {
  it('refuses a card id the contract does not allow before sending, and says a taken one under its field', async () => {
    const served = serveApi(
      get('/api/drivers', []),
      companies,
      answer('POST', '/api/drivers', () => apiError(409, 'CONFLICT', 'uniqueId taken', { field: 'uniqueId' })),
    );
    renderAt(<DriversScreen />, { path: '/admin/drivers', user: ADMIN });
    expect(await screen.findByText('No drivers yet')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New driver' }));
    const form = await screen.findByRole('form', { name: 'New driver' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Juma Hamisi' } });
    fireEvent.change(within(form).getByLabelText(/^Card or tag id/), { target: { value: 'card 42!' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const card = within(form).getByLabelText(/^Card or tag id/);
    await waitFor(() => expect(card.getAttribute('aria-invalid')).toBe('true'));
    expect(served.sent.get('POST /api/drivers')).toBeUndefined();
    fireEvent.change(card, { target: { value: 'RFID-0042' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(served.sent.get('POST /api/drivers')).toEqual([
        { name: 'Juma Hamisi', uniqueId: 'RFID-0042', companyId: null, attributes: {} },
      ]),
    );
    expect(await within(form).findByText(/already in use/)).toBeTruthy();
    expect(form.textContent).not.toMatch(/uniqueId/);
  });
});

describe('maintenance', () => {
  it("shows and takes distances in the user's unit and hours in hours; the API gets metres and milliseconds", async () => {
    const oil = {
      id: 3,
      name: 'Oil change',
      type: 'totalDistance',
      start: 10_000_000,
      period: 10_000_000,
      companyId: null,
      attributes: {},
    };
    const served = serveApi(
      get('/api/maintenance', [oil]),
      companies,
      answer('POST', '/api/maintenance', (b) => json(200, { id: 4, ...(b as object) })),
    );
    renderAt(<MaintenanceScreen />, { path: '/admin/maintenance', user: ADMIN });
    const row = (await screen.findByText('Oil change')).closest('tr')!;
    expect(row.textContent).toContain('10,000 km');
    expect(row.textContent).toContain('Distance driven');
    expect(row.textContent).toContain('Shared (every company)');
    fireEvent.click(screen.getByRole('button', { name: 'New maintenance' }));
    const form = await screen.findByRole('form', { name: 'New maintenance' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Engine service' } });
    fireEvent.change(within(form).getByLabelText(/^Watches/), { target: { value: 'hours' } });
    fireEvent.change(await within(form).findByLabelText(/^First due at \(h\)/), { target: { value: '500' } });
    fireEvent.change(within(form).getByLabelText(/^Then every \(h\)/), { target: { value: '250' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(served.sent.get('POST /api/maintenance')).toEqual([
        { name: 'Engine service', type: 'hours', start: 500 * 3_600_000, period: 250 * 3_600_000, companyId: null, attributes: {} },
      ]),
    );
  });

  it('a period of nothing is refused before sending', async () => {
    const served = serveApi(get('/api/maintenance', []), companies);
    renderAt(<MaintenanceScreen />, { path: '/admin/maintenance', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'New maintenance' }));
    const form = await screen.findByRole('form', { name: 'New maintenance' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Tyres' } });
    fireEvent.change(within(form).getByLabelText(/^Then every/), { target: { value: '0' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        within(form)
          .getByLabelText(/^Then every/)
          .getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(served.sent.get('POST /api/maintenance')).toBeUndefined();
  });
});

describe('computed attributes', () => {
  it("edits an expression; a refused expression is said under the field as labelled, not the server's words", async () => {
    const fast = {
      id: 2,
      description: 'Driving fast',
      attribute: 'fast',
      expression: 'speed > 45',
      type: 'Boolean',
      priority: 0,
      companyId: null,
    };
    const served = serveApi(
      get('/api/attributes/computed', [fast]),
      companies,
      answer('PUT', '/api/attributes/computed/2', () =>
        apiError(400, 'VALIDATION_FAILED', 'expression: does not parse', [
          { in: 'body', path: 'expression', code: 'custom', message: 'does not parse' },
        ]),
      ),
    );
    renderAt(<ComputedAttributesScreen />, { path: '/admin/computed-attributes', user: ADMIN });
    expect((await screen.findByText('Driving fast')).closest('tr')!.textContent).toContain('Yes or no');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Driving fast' }));
    const form = await screen.findByRole('form', { name: 'Edit Driving fast' });
    fireEvent.change(within(form).getByLabelText(/^Expression/), { target: { value: 'speed >' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(served.sent.get('PUT /api/attributes/computed/2')).toEqual([
        { description: 'Driving fast', attribute: 'fast', expression: 'speed >', type: 'Boolean', priority: 0, companyId: null },
      ]),
    );
    await waitFor(() =>
      expect(
        within(form)
          .getByLabelText(/^Expression/)
          .getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(form.textContent).not.toMatch(/does not parse/);
  });
});
