import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@corridor/contracts/users';
import { i18n } from '../i18n/i18n';
import { apiError, get, renderAt, serveApi, type Handler } from '../test/api-stub';
import CreateShipmentScreen from './CreateShipmentScreen';

/**
 * A new shipment against a stand-in for the API (ops-api's shipments tests prove what it keeps):
 * the contract's ShipmentInput checks the form before sending (a container's check digit, an
 * arrival before the departure), lists typed with commas go as lists and empty fields as none,
 * and a server's refusal is worded under its field in Swahili.
 */
const COMPANY_USER = {
  id: 40,
  name: 'Amani',
  email: 'amani@pwani.test',
  roles: ['company_user'],
  companyId: 101,
  disabled: false,
  readonly: false,
  attributes: {},
} as unknown as User;
// no validated cargo: the list of cargo is the company's own screen's to test
const cargo = get('/api/cargos/company', { items: [], total: 0, limit: 100, offset: 0 });
const post =
  (reply: (body: unknown) => Response): Handler =>
  ({ method, url, body }) =>
    method === 'POST' && url.pathname === '/api/shipments/company' ? reply(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

async function open() {
  renderAt(<CreateShipmentScreen />, { path: '/shipments/new', user: COMPANY_USER });
  const form = await screen.findByRole('form', { name: 'New shipment' });
  fireEvent.change(within(form).getByLabelText(/^Reference/), { target: { value: 'PWN/2026/1042' } });
  fireEvent.change(within(form).getByLabelText(/^Destination$/), { target: { value: 'Kampala' } });
  return form;
}

describe('new shipment', () => {
  it('refuses a container whose check digit is wrong before sending; then sends lists as lists and empty fields as none', async () => {
    const served = serveApi(
      cargo,
      post(() => apiError(503, 'UNAVAILABLE', 'down')),
    );
    const form = await open();
    fireEvent.change(within(form).getByLabelText(/^Containers/), { target: { value: 'MSKU1234565, MSKU1234566' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create shipment' }));
    await waitFor(() =>
      expect(
        within(form)
          .getByLabelText(/^Containers/)
          .getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(served.sent.get('POST /api/shipments/company')).toBeUndefined();
    fireEvent.change(within(form).getByLabelText(/^Containers/), { target: { value: 'msku1234565' } });
    fireEvent.change(within(form).getByLabelText(/^Border crossings/), { target: { value: 'Malaba, Busia' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create shipment' }));
    await waitFor(() => expect(served.sent.get('POST /api/shipments/company')).toHaveLength(1));
    expect(served.sent.get('POST /api/shipments/company')![0]).toMatchObject({
      reference: 'PWN/2026/1042',
      origin: { place: 'Mombasa', country: 'KE' },
      destination: { place: 'Kampala', country: 'UG' },
      corridor: 'northern',
      borderCrossings: ['Malaba', 'Busia'],
      containerNumbers: ['MSKU1234565'],
      truckPlate: null,
      driver: null,
      notes: null,
      plannedDeparture: null,
    });
    // the server was down: said in the form, worded
    expect(await within(form).findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });

  it("a driver's phone the server refuses is said under its field, in Swahili", async () => {
    await i18n.changeLanguage('sw');
    serveApi(
      cargo,
      post(() =>
        apiError(400, 'VALIDATION_FAILED', 'driver.phone: invalid', [
          { in: 'body', path: 'driver.phone', code: 'invalid_format', format: 'regex', message: 'invalid' },
        ]),
      ),
    );
    renderAt(<CreateShipmentScreen />, { path: '/shipments/new', user: COMPANY_USER });
    const form = await screen.findByRole('form', { name: 'Shehena mpya' });
    fireEvent.change(within(form).getByLabelText(/^Kumbukumbu/), { target: { value: 'PWN/2026/1043' } });
    fireEvent.change(within(form).getByLabelText(/^Mwisho$/), { target: { value: 'Kigali' } });
    fireEvent.change(within(form).getByLabelText(/^Dereva$/), { target: { value: 'Juma' } });
    const phone = within(form).getByLabelText(/^Simu ya dereva/);
    fireEvent.change(phone, { target: { value: '+254712345678' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Unda shehena' }));
    await waitFor(() => expect(phone.getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).not.toMatch(/driver\.phone|invalid/);
  });
});
