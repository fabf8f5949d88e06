import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { User } from '@corridor/contracts/users';
import { i18n } from '../i18n/i18n';
import { apiError, get, json, renderAt, serveApi, type Handler } from '../test/api-stub';
import FileComplaintScreen from './FileComplaintScreen';

/**
 * Filing a complaint against a stand-in for the API (ops-api's complaints.test.ts proves what it
 * keeps): the contract's ComplaintInput checks the form before sending (a driver must be named, a
 * short title is refused under its field), the company is sent as its own subject, and the server's
 * refusal is worded under the field, in Swahili too.
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
const company = (id: number, name: string) => ({ id, name, country: 'KE', kind: 'transporter' });
// every company by name (GET /companies/names): a company user complains about another company
const companies = get('/api/companies/names', {
  items: [company(101, 'Pwani Freight Movers Ltd'), company(202, 'Msasani Corridor Logistics Ltd')],
  total: 2,
  limit: 1000,
  offset: 0,
});
const NOW = '2026-11-28T08:00:00.000Z';
/** The complaint as the API answers it (every field of the contract). */
const filed = (b: object) => ({
  id: 9,
  ...b,
  status: 'open',
  resolution: null,
  filedBy: { userId: 40, email: 'amani@pwani.test', companyId: 101 },
  statusChangedAt: NOW,
  decidedAt: null,
  reopenUntil: null,
  allowedNextStatuses: [],
  createdAt: NOW,
  updatedAt: NOW,
});
const post =
  (answer: (body: unknown) => Response): Handler =>
  ({ method, url, body }) =>
    method === 'POST' && url.pathname === '/api/complaints' ? answer(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

async function fill(subject: 'company' | 'driver') {
  renderAt(<FileComplaintScreen />, { path: '/complaints/new', user: COMPANY_USER });
  await screen.findByRole('option', { name: 'Msasani Corridor Logistics Ltd' });
  fireEvent.change(screen.getByLabelText(/^Company complained against/), { target: { value: '202' } });
  fireEvent.change(screen.getByLabelText('About'), { target: { value: subject } });
  fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Truck late at Malaba' } });
  fireEvent.change(screen.getByLabelText(/^What happened/), { target: { value: 'The truck arrived two days late without notice.' } });
}

describe('file a complaint', () => {
  it("offers every other company by name (not the user's own), sends the company as its own subject, and says the complaint was filed", async () => {
    const served = serveApi(
      companies,
      post((b) => json(201, filed(b as object))),
    );
    await fill('company');
    expect(screen.queryByRole('option', { name: 'Pwani Freight Movers Ltd' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'File complaint' }));
    expect(await screen.findByText('Your complaint was filed. The association has been told.')).toBeTruthy();
    expect(served.sent.get('POST /api/complaints')).toEqual([
      {
        subjectType: 'company',
        subjectRef: '202',
        companyId: 202,
        category: 'delay',
        title: 'Truck late at Malaba',
        description: 'The truck arrived two days late without notice.',
        journeyId: null,
        occurredAt: null,
      },
    ]);
  });

  it('checks the contract before sending: a driver must be named, a short title is refused under its field', async () => {
    const served = serveApi(companies);
    await fill('driver');
    fireEvent.change(screen.getByLabelText(/^Title/), { target: { value: 'Hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'File complaint' }));
    const driver = await screen.findByLabelText(/^Driver \(name or licence\)/);
    await waitFor(() => expect(driver.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Fill this in.')).toBeTruthy();
    expect(screen.getByText('Enter at least 3 characters.')).toBeTruthy();
    expect(served.sent.get('POST /api/complaints')).toBeUndefined();
  });

  it("a refusal of the server is said under its field, in Swahili, never the server's English", async () => {
    await i18n.changeLanguage('sw');
    serveApi(
      companies,
      post(() =>
        apiError(400, 'VALIDATION_FAILED', 'body.title: Too small', [
          {
            in: 'body',
            path: 'title',
            message: 'Too small: expected string to have >=3 characters',
            code: 'too_small',
            origin: 'string',
            minimum: 3,
          },
        ]),
      ),
    );
    renderAt(<FileComplaintScreen />, { path: '/complaints/new', user: COMPANY_USER });
    await screen.findByRole('option', { name: 'Msasani Corridor Logistics Ltd' });
    fireEvent.change(screen.getByLabelText(/^Kampuni/), { target: { value: '202' } });
    fireEvent.change(screen.getByLabelText(/^Kichwa/), { target: { value: 'Late truck' } });
    fireEvent.change(screen.getByLabelText(/^Kilichotokea/), { target: { value: 'The truck arrived two days late.' } });
    fireEvent.click(screen.getByRole('button', { name: /Wasilisha/ }));
    const title = screen.getByLabelText(/^Kichwa/);
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Andika angalau herufi 3.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/body\.title|Too small/);
  });
});
