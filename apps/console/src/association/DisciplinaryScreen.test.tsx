import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { SanctionType } from '@corridor/contracts/disciplinary';
import { noticeWord } from '@corridor/contracts/notice-text';
import type { User } from '@corridor/contracts/users';
import { i18n } from '../i18n/i18n';
import { apiError, get, json, renderAt, serveApi, type Handler } from '../test/api-stub';
import { saidOnce, swahili } from '../test/contract-api';
import DisciplinaryScreen from './DisciplinaryScreen';

/**
 * Recording a sanction against a stand-in for the API (ops-api's disciplinary.test.ts proves what it
 * keeps): the contract's DisciplinaryInput checks the form (a fine needs its amount) before
 * sending; a fine goes with its currency, a warning without; the list says when it is empty and
 * when the server is down.
 */
const OFFICER = {
  id: 5,
  name: 'Officer',
  email: 'officer@corridor.test',
  roles: ['association_officer'],
  companyId: null,
  disabled: false,
  readonly: false,
  attributes: {},
} as unknown as User;
const company = {
  id: 101,
  name: 'Pwani Freight Movers Ltd',
  country: 'KE',
  kind: 'transporter',
  registrationNumber: null,
  taxPin: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const companies = get('/api/companies', { items: [company], total: 1, limit: 1000, offset: 0 });
const none = get('/api/disciplinary/admin/all', { items: [], total: 0, limit: 20, offset: 0 });
const post =
  (answer: (body: unknown) => Response): Handler =>
  ({ method, url, body }) =>
    method === 'POST' && url.pathname === '/api/disciplinary/admin' ? answer(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

async function openForm() {
  renderAt(<DisciplinaryScreen />, { path: '/disciplinary', user: OFFICER });
  fireEvent.click(await screen.findByText('Record a sanction'));
  const form = screen.getByRole('form', { name: 'Record a sanction' });
  await within(form).findByRole('option', { name: 'Pwani Freight Movers Ltd' });
  fireEvent.change(within(form).getByLabelText(/^Company/), { target: { value: '101' } });
  fireEvent.change(within(form).getByLabelText(/^Reason/), { target: { value: 'Late deliveries after warnings' } });
  return form;
}

describe('disciplinary records', () => {
  it('a fine needs its amount before anything is sent; then it goes with its currency', async () => {
    const served = serveApi(
      companies,
      none,
      post((b) =>
        json(201, {
          id: 1,
          journeyFlagId: null,
          ...(b as object),
          active: true,
          recordedBy: { userId: 5, email: 'officer@corridor.test' },
          createdAt: '2026-11-28T08:00:00.000Z',
        }),
      ),
    );
    const form = await openForm();
    fireEvent.change(within(form).getByLabelText('Sanction'), { target: { value: 'fine' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Record sanction' }));
    const amount = await within(form).findByLabelText(/^Fine/);
    await waitFor(() => expect(amount.getAttribute('aria-invalid')).toBe('true'));
    expect(served.sent.get('POST /api/disciplinary/admin')).toBeUndefined();
    fireEvent.change(amount, { target: { value: '50000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Record sanction' }));
    await waitFor(() => expect(served.sent.get('POST /api/disciplinary/admin')).toHaveLength(1));
    expect(served.sent.get('POST /api/disciplinary/admin')![0]).toMatchObject({
      companyId: 101,
      subjectType: 'company',
      subjectRef: '101',
      sanctionType: 'fine',
      fineAmount: 50000,
      fineCurrency: 'KES',
      reason: 'Late deliveries after warnings',
      endsAt: null,
      complaintId: null,
    });
    // recorded: the form is blank again, and no refusal is shown
    await waitFor(() => expect((within(form).getByLabelText(/^Reason/) as HTMLTextAreaElement).value).toBe(''));
    expect(within(form).queryByRole('alert')).toBeNull();
  });

  it("a warning goes without a fine; the server's refusal is worded, in Swahili", async () => {
    const served = serveApi(
      companies,
      none,
      post(() => apiError(404, 'NOT_FOUND', 'complaint 77 not found')),
    );
    const form = await openForm();
    fireEvent.change(within(form).getByLabelText('Complaint number (optional)'), { target: { value: '77' } });
    await i18n.changeLanguage('sw');
    fireEvent.click(within(form).getByRole('button', { name: /Rekodi/ }));
    await waitFor(() => expect(served.sent.get('POST /api/disciplinary/admin')).toHaveLength(1));
    expect(served.sent.get('POST /api/disciplinary/admin')![0]).toMatchObject({
      sanctionType: 'warning',
      fineAmount: null,
      fineCurrency: null,
      complaintId: 77,
    });
    await saidOnce(swahili('errors.notFound'));
    expect(within(form).getByRole('alert').textContent).toBe(swahili('errors.notFound'));
    expect(document.body.textContent).not.toMatch(/complaint 77 not found/);
  });

  it("names the sanctions with the notices' words (contracts notice-text), in English and in Swahili", async () => {
    serveApi(companies, none);
    const view = await openForm();
    const sanctions = () =>
      within(view)
        .getAllByRole('option')
        .map((o) => o.textContent);
    expect(sanctions()).toEqual(expect.arrayContaining(SanctionType.options.map((s) => noticeWord('sanctions', s, 'en'))));
    expect(sanctions()).toContain('Suspension');
    cleanup();
    await i18n.changeLanguage('sw');
    renderAt(<DisciplinaryScreen />, { path: '/disciplinary', user: OFFICER });
    fireEvent.click(await screen.findByText(swahili('disciplinary.record')));
    const fomu = screen.getByRole('form', { name: swahili('disciplinary.record') });
    const adhabu = within(fomu)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(adhabu).toEqual(expect.arrayContaining(SanctionType.options.map((s) => noticeWord('sanctions', s, 'sw'))));
    expect(adhabu).toContain('Kusimamishwa');
  });

  it('says when there are no records, and when the server is down', async () => {
    serveApi(companies, none);
    const empty = renderAt(<DisciplinaryScreen />, { path: '/disciplinary', user: OFFICER });
    expect(await screen.findByText('No disciplinary records')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'postgres is down'));
    renderAt(<DisciplinaryScreen />, { path: '/disciplinary', user: OFFICER });
    expect(await screen.findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });
});
