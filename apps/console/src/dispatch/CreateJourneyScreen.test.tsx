import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, deviceFixture, DISPATCHER, get, renderAt, serveApi, type Handler } from '../test/api-stub';
import { route } from '../test/fixtures';
import CreateJourneyScreen from './CreateJourneyScreen';

/**
 * Declaring a journey against a stand-in for the API (the journey service's tests prove what it
 * keeps): the contract's JourneyInput refuses a missing truck or route and an arrival before the
 * departure before sending; empty references go as none; the server's refusal is worded under its
 * field in Swahili.
 */
const T = '2026-11-01T00:00:00.000Z';
const devices = get('/api/devices', (q: URLSearchParams) =>
  q.get('offset') === '0' || !q.get('offset') ? [deviceFixture(7, 'Truck 07')] : [],
);
const routes = get('/api/routes', [route(1, 'Northern Corridor', { countries: ['KE'], createdAt: T, updatedAt: T })]);
const companies = get('/api/companies', { items: [], total: 0, limit: 1000, offset: 0 });
const post =
  (reply: () => Response): Handler =>
  ({ method, url }) =>
    method === 'POST' && url.pathname === '/api/journey' ? reply() : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('declare a journey', () => {
  it('needs a truck and a route, and an arrival after the departure, before anything is sent', async () => {
    const served = serveApi(
      devices,
      routes,
      companies,
      post(() => apiError(503, 'UNAVAILABLE', 'down')),
    );
    renderAt(<CreateJourneyScreen />, { path: '/journeys/new' });
    const form = await screen.findByRole('form', { name: 'New journey' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create journey' }));
    await waitFor(() => expect(within(form).getByLabelText('Truck').getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByLabelText('Route').getAttribute('aria-invalid')).toBe('true');
    await within(form).findByRole('option', { name: 'Truck 07 (357000000000007)' });
    await within(form).findByRole('option', { name: 'Northern Corridor' });
    fireEvent.change(within(form).getByLabelText('Truck'), { target: { value: '7' } });
    fireEvent.change(within(form).getByLabelText('Route'), { target: { value: '1' } });
    fireEvent.change(within(form).getByLabelText('Planned departure'), { target: { value: '2026-12-02T08:00' } });
    fireEvent.change(within(form).getByLabelText('Planned arrival'), { target: { value: '2026-12-01T08:00' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create journey' }));
    expect(await within(form).findByText('The planned arrival must come after the planned departure.')).toBeTruthy();
    expect(served.sent.get('POST /api/journey')).toBeUndefined();
    fireEvent.change(within(form).getByLabelText('Planned arrival'), { target: { value: '2026-12-04T08:00' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create journey' }));
    await waitFor(() => expect(served.sent.get('POST /api/journey')).toHaveLength(1));
    expect(served.sent.get('POST /api/journey')![0]).toMatchObject({
      deviceId: 7,
      routeId: 1,
      companyId: null,
      truckPlate: null,
      shipmentRef: null,
      cargoRef: null,
    });
    expect(await within(form).findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });

  it('a plate the server refuses is said under its field, in Swahili', async () => {
    await i18n.changeLanguage('sw');
    serveApi(
      devices,
      routes,
      companies,
      post(() =>
        apiError(400, 'VALIDATION_FAILED', 'truckPlate: Too big', [
          { in: 'body', path: 'truckPlate', code: 'too_big', maximum: 32, origin: 'string', message: 'Too big' },
        ]),
      ),
    );
    renderAt(<CreateJourneyScreen />, { path: '/journeys/new', user: DISPATCHER });
    const form = await screen.findByRole('form');
    await within(form).findByRole('option', { name: 'Northern Corridor' });
    const selects = within(form).getAllByRole('combobox');
    fireEvent.change(selects[0]!, { target: { value: '7' } });
    fireEvent.change(selects[1]!, { target: { value: '1' } });
    const plate = within(form).getAllByRole('textbox')[0]!;
    fireEvent.change(plate, { target: { value: 'KCB 123A' } });
    fireEvent.click(within(form).getByRole('button'));
    await waitFor(() => expect(plate.getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).not.toMatch(/Too big|truckPlate/);
  });
});
