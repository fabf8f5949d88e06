import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, deviceFixture, get, json, renderAt, serveApi, type Handler } from '../test/api-stub';
import InventoriesScreen from './InventoriesScreen';
import { ADMIN } from '../test/fixtures';

/**
 * The inventory of tracking units against a stand-in for the API (ops-api's inventories tests prove
 * what it keeps): assigning a unit needs a company, transferring one needs a company and a reason,
 * checked by the contract before sending; the server's refusal is worded in Swahili; an empty
 * inventory and a server down say so.
 */
const T = '2026-11-01T00:00:00.000Z';
const unit = (id: number, deviceId: number, status: string, companyId: number | null) => ({
  id,
  deviceId,
  serialNumber: `SN-${id}`,
  status,
  companyId,
  truckId: null,
  assignedAt: companyId ? T : null,
  notes: null,
  attributes: {},
  createdAt: T,
  updatedAt: T,
});
const company = (id: number, name: string) => ({
  id,
  name,
  country: 'KE',
  kind: 'transporter',
  registrationNumber: null,
  taxPin: null,
  createdAt: T,
});
const companies = get('/api/companies', {
  items: [company(101, 'Pwani Freight Movers Ltd'), company(202, 'Msasani Corridor Logistics Ltd')],
  total: 2,
  limit: 1000,
  offset: 0,
});
const devices = get('/api/devices', (q: URLSearchParams) =>
  q.get('offset') === '0' || !q.get('offset') ? [deviceFixture(7, 'Truck 07'), deviceFixture(8, 'Truck 08')] : [],
);
const answer =
  (method: string, path: string, reply: (body: unknown) => Response): Handler =>
  ({ method: m, url, body }) =>
    m === method && url.pathname === path ? reply(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('inventories', () => {
  it('assigns a unit in stock: a company is needed before anything is sent', async () => {
    const served = serveApi(
      get('/api/inventories', [unit(1, 7, 'in_stock', null)]),
      companies,
      devices,
      answer('POST', '/api/inventories/1/assign', () => json(200, unit(1, 7, 'assigned', 101))),
    );
    renderAt(<InventoriesScreen />, { path: '/admin/inventories', user: ADMIN });
    const row = (await screen.findByText('SN-1')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Assign' }));
    const form = await screen.findByRole('form', { name: /^Assign / });
    fireEvent.click(within(form).getByRole('button', { name: 'Assign' }));
    await waitFor(() =>
      expect(
        within(form)
          .getByLabelText(/^To company/)
          .getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(served.sent.get('POST /api/inventories/1/assign')).toBeUndefined();
    await within(form).findByRole('option', { name: 'Pwani Freight Movers Ltd' });
    fireEvent.change(within(form).getByLabelText(/^To company/), { target: { value: '101' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Assign' }));
    await waitFor(() =>
      expect(served.sent.get('POST /api/inventories/1/assign')).toEqual([expect.objectContaining({ companyId: 101, truckId: null })]),
    );
    await waitFor(() => expect(screen.queryByRole('form', { name: /^Assign / })).toBeNull());
  });

  it("a transfer needs its reason; the server's refusal is worded in Swahili", async () => {
    await i18n.changeLanguage('sw');
    const served = serveApi(
      get('/api/inventories', [unit(2, 8, 'assigned', 101)]),
      companies,
      devices,
      answer('POST', '/api/inventories/2/transfer', () => apiError(409, 'CONFLICT', 'unit moved meanwhile')),
    );
    renderAt(<InventoriesScreen />, { path: '/admin/inventories', user: ADMIN });
    const row = (await screen.findByText('SN-2')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Hamisha' }));
    const form = await screen.findByRole('form', { name: /^Hamisha / });
    await within(form).findByRole('option', { name: 'Msasani Corridor Logistics Ltd' });
    fireEvent.change(within(form).getByLabelText(/^Kwa kampuni|^Kampuni/), { target: { value: '202' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Hamisha' }));
    await waitFor(() => expect(within(form).getByRole('textbox').getAttribute('aria-invalid')).toBe('true'));
    expect(served.sent.get('POST /api/inventories/2/transfer')).toBeUndefined();
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: 'Sold with the truck' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Hamisha' }));
    await waitFor(() =>
      expect(served.sent.get('POST /api/inventories/2/transfer')).toEqual([
        { toCompanyId: 202, truckId: null, reason: 'Sold with the truck' },
      ]),
    );
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).not.toMatch(/moved meanwhile/);
  });

  it('says when the inventory is empty, and when the server is down', async () => {
    serveApi(get('/api/inventories', []), companies, devices);
    const empty = renderAt(<InventoriesScreen />, { path: '/admin/inventories', user: ADMIN });
    expect(await screen.findByText('No tracking units in the inventory')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'down'));
    renderAt(<InventoriesScreen />, { path: '/admin/inventories', user: ADMIN });
    expect(await screen.findAllByText('The server is busy or a part of it is down. Try again in a moment.')).not.toHaveLength(0);
  });
});
