import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, get, json, renderAt, serveApi, type Handler } from '../test/api-stub';
import CompaniesScreen from './CompaniesScreen';
import { ADMIN } from '../test/fixtures';

/**
 * The companies screen against a stand-in for the API (ops-api's companies.test proves the API
 * keeps and audits what is sent): the administrator registers a company and corrects one, on a
 * form checked by the contract's CompanyInput; a refusal is worded under its field; an empty
 * result and a server down say so.
 */
const pwani = {
  id: 101,
  name: 'Pwani Freight Movers Ltd',
  country: 'KE',
  kind: 'transporter',
  registrationNumber: 'PVT-2019-001',
  taxPin: 'P051234567X',
  createdAt: '2026-01-01T00:00:00.000Z',
};
const page = (items: unknown[]) => get('/api/companies', { items, total: items.length, limit: 50, offset: 0 });
const answer =
  (method: string, path: string, reply: (body: unknown) => Response): Handler =>
  ({ method: m, url, body }) =>
    m === method && url.pathname === path ? reply(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('companies', () => {
  it('registers a company: refused by the contract until its country and kind are chosen, then sent and said saved', async () => {
    const served = serveApi(
      page([pwani]),
      answer('POST', '/api/companies', (b) => json(201, { id: 300, createdAt: '2026-11-29T00:00:00.000Z', ...(b as object) })),
    );
    renderAt(<CompaniesScreen />, { path: '/admin/companies', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Register a company' }));
    const form = await screen.findByRole('form', { name: 'Register a company' });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Rusumo Haulage Ltd' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(
        within(form)
          .getByLabelText(/^Country/)
          .getAttribute('aria-invalid'),
      ).toBe('true'),
    );
    expect(within(form).getByLabelText(/^Kind/).getAttribute('aria-invalid')).toBe('true');
    expect(served.sent.get('POST /api/companies')).toBeUndefined();
    fireEvent.change(within(form).getByLabelText(/^Country/), { target: { value: 'RW' } });
    fireEvent.change(within(form).getByLabelText(/^Kind/), { target: { value: 'transporter' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(served.sent.get('POST /api/companies')).toEqual([
        { name: 'Rusumo Haulage Ltd', country: 'RW', kind: 'transporter', registrationNumber: '', taxPin: '' },
      ]),
    );
    expect(await screen.findByText('Rusumo Haulage Ltd is saved.')).toBeTruthy();
  });

  it("corrects a company; the server's refusal goes under its field, in Swahili", async () => {
    await i18n.changeLanguage('sw');
    const served = serveApi(
      page([pwani]),
      answer('PUT', '/api/companies/101', () =>
        apiError(400, 'VALIDATION_FAILED', 'name: Too small', [
          { in: 'body', path: 'name', code: 'too_small', minimum: 2, origin: 'string', message: 'Too small' },
        ]),
      ),
    );
    renderAt(<CompaniesScreen />, { path: '/admin/companies', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Hariri Pwani Freight Movers Ltd' }));
    const form = await screen.findByRole('form', { name: 'Hariri Pwani Freight Movers Ltd' });
    expect((within(form).getByLabelText(/^Namba ya usajili/) as HTMLInputElement).value).toBe('PVT-2019-001');
    fireEvent.change(within(form).getByLabelText(/^Aina/), { target: { value: 'shipper' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Hifadhi' }));
    await waitFor(() =>
      expect(served.sent.get('PUT /api/companies/101')).toEqual([
        { name: 'Pwani Freight Movers Ltd', country: 'KE', kind: 'shipper', registrationNumber: 'PVT-2019-001', taxPin: 'P051234567X' },
      ]),
    );
    await waitFor(() => expect(within(form).getByLabelText(/^Jina/).getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).not.toMatch(/Too small|name:/);
  });

  it('says when nothing matches, and when the server is down', async () => {
    serveApi(page([]));
    const empty = renderAt(<CompaniesScreen />, { path: '/admin/companies', user: ADMIN });
    expect(await screen.findByText('No companies match')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'postgres is down'));
    renderAt(<CompaniesScreen />, { path: '/admin/companies', user: ADMIN });
    expect(await screen.findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });
});
