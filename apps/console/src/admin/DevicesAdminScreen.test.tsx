import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, deviceFixture, get, json, renderAt, serveApi, type Handler } from '../test/api-stub';
import DevicesAdminScreen from './DevicesAdminScreen';
import { ADMIN } from '../test/fixtures';

/**
 * The device registry against a stand-in for the API (ops-api's device-writes and devices-extras
 * tests prove the API keeps what is sent here): an edit keeps the fields the form does not show and
 * sends the speed limit in knots; the contract refuses before sending; the server's refusal goes
 * under its field, worded; the odometer goes in metres; an empty registry and a server down say so.
 */
const truck = deviceFixture(7, 'Truck 07', {
  groupId: 0,
  model: 'FMB920',
  category: 'truck',
  contact: 'Juma',
  attributes: { fuelTank: 400 },
});
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
const groups = get('/api/groups', [{ id: 5, name: 'Mombasa fleet', groupId: 0, companyId: 101, attributes: {} }]);
const put =
  (path: string, answer: (body: unknown) => Response): Handler =>
  ({ method, url, body }) =>
    method === 'PUT' && url.pathname === path ? answer(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

async function openEdit() {
  renderAt(<DevicesAdminScreen />, { path: '/admin/devices', user: ADMIN });
  fireEvent.click(await screen.findByRole('button', { name: 'Edit Truck 07' }));
  const form = await screen.findByRole('form', { name: 'Edit Truck 07' });
  await within(form).findByRole('option', { name: 'Mombasa fleet' });
  return form;
}

describe('device registry', () => {
  it('edits a device: its group and speed limit (km/h on screen, knots on the API), every other field kept', async () => {
    const served = serveApi(
      get('/api/devices', [truck]),
      companies,
      groups,
      put('/api/devices/7', (b) => json(200, { ...truck, ...(b as object) })),
    );
    const form = await openEdit();
    fireEvent.change(within(form).getByLabelText('Group'), { target: { value: '5' } });
    fireEvent.change(within(form).getByLabelText('Speed limit (km/h)'), { target: { value: '80' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(served.sent.get('PUT /api/devices/7')).toHaveLength(1));
    const body = served.sent.get('PUT /api/devices/7')![0] as Record<string, unknown> & { attributes: Record<string, number> };
    expect(body).toMatchObject({
      name: 'Truck 07',
      uniqueId: truck.uniqueId,
      groupId: 5,
      companyId: 101,
      model: 'FMB920',
      contact: 'Juma',
      category: 'truck',
      disabled: false,
    });
    expect(body.attributes.fuelTank).toBe(400);
    expect(body.attributes.speedLimit).toBeCloseTo(80 / 1.852, 6);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Truck 07' })).toBeNull());
  });

  it('checks the contract before sending: an empty name is said under its field, nothing sent', async () => {
    const served = serveApi(get('/api/devices', [truck]), companies, groups);
    const form = await openEdit();
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    const name = within(form).getByLabelText(/^Name/);
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(name.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent).toMatch(/\S/);
    expect(served.sent.get('PUT /api/devices/7')).toBeUndefined();
  });

  it('a tracker id already taken is said once, under the field as labelled, in Swahili', async () => {
    await i18n.changeLanguage('sw');
    serveApi(
      get('/api/devices', [truck]),
      companies,
      groups,
      put('/api/devices/7', () => apiError(409, 'CONFLICT', 'uniqueId taken', { field: 'uniqueId' })),
    );
    renderAt(<DevicesAdminScreen />, { path: '/admin/devices', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Hariri Truck 07' }));
    const form = await screen.findByRole('form', { name: 'Hariri Truck 07' });
    fireEvent.click(within(form).getByRole('button', { name: /Hifadhi/ }));
    await waitFor(() => expect(within(form).getAllByText(/tayari inatumika/)).toHaveLength(1));
    expect(form.textContent).not.toMatch(/uniqueId/);
  });

  it("sets the odometer in the user's distance unit (metres on the API) and the engine hours (milliseconds)", async () => {
    const served = serveApi(
      get('/api/devices', [truck]),
      companies,
      groups,
      put('/api/devices/7/accumulators', () => new Response(null, { status: 204 })),
    );
    await openEdit();
    const counters = screen.getByRole('form', { name: 'Odometer and engine hours' });
    fireEvent.click(within(counters).getByRole('button', { name: 'Set readings' }));
    expect(await within(counters).findByText('Give the odometer, the engine hours, or both.')).toBeTruthy();
    fireEvent.change(within(counters).getByLabelText('Odometer (km)'), { target: { value: '1200.5' } });
    fireEvent.change(within(counters).getByLabelText('Engine hours'), { target: { value: '10' } });
    fireEvent.click(within(counters).getByRole('button', { name: 'Set readings' }));
    expect(await within(counters).findByText('Readings set.')).toBeTruthy();
    expect(served.sent.get('PUT /api/devices/7/accumulators')).toEqual([{ deviceId: 7, totalDistance: 1_200_500, hours: 36_000_000 }]);
  });

  it('says when no device is registered, and when the server is down', async () => {
    serveApi(get('/api/devices', []), companies, groups);
    const empty = renderAt(<DevicesAdminScreen />, { path: '/admin/devices', user: ADMIN });
    expect(await screen.findByText('Register a tracker with the id it reports (its IMEI for most devices).')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'postgres is down'));
    renderAt(<DevicesAdminScreen />, { path: '/admin/devices', user: ADMIN });
    expect(await screen.findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });
});
