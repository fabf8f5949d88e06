import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, noteAskedFirst, refuse, saidOnce, saidOnceInEnglishAndSwahili } from '../test/contract-api';
import { cargo, certificate, page, PWANI, userAs } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import { cargoEndpoints } from './cargo';
import CargoDetailScreen from './CargoDetailScreen';
import { certificateEndpoints } from './certificates';

/**
 * One cargo against contract-shaped answers: what was read from its IDF and the moves the contract's
 * transition table gives the user's role; validation held back while a check fails; a cancellation
 * that needs its reason before anything is sent; refusals (a lost race, a conflicting application,
 * a missing cargo) said once, in words.
 */
const AGENT = userAs(41, 'Wakala', ['clearing_agent'], 101);
const companies = answer(companiesList, page([PWANI], 1000));
const noCertificates = answer(certificateEndpoints.list, page([], 10));
const open = () => renderAt(<CargoDetailScreen />, { path: '/cargo/3', route: '/cargo/:id', user: AGENT });
const moves = () => screen.getByRole('region', { name: 'Status moves' });
const failing = () => {
  const c = cargo(3);
  return cargo(3, {
    extraction: {
      ...c.extraction,
      valid: false,
      fields: {
        ...c.extraction.fields,
        importerPin: { value: 'P05', confidence: 0.6, valid: false, issues: ['not a KRA PIN or TRA TIN'] },
      },
    },
  });
};

describe('cargo detail', () => {
  it("shows what was read from the IDF and the moves the agent's role has", async () => {
    serveApi(companies, noCertificates, answer(cargoEndpoints.get, cargo(3)));
    open();
    expect(await screen.findByRole('heading', { name: 'Cargo E26003' })).toBeTruthy();
    expect(screen.getByText('Every check passed.')).toBeTruthy();
    expect(
      within(moves())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Finalize (validate)', 'Reject', 'Cancel cargo']);
    await waitFor(() => expect(screen.getByText('Pwani Freight Movers Ltd')).toBeTruthy());
  });

  it('holds validation back while a check fails, and says what to do first', async () => {
    serveApi(companies, noCertificates, answer(cargoEndpoints.get, failing()));
    open();
    const validate = await screen.findByRole('button', { name: 'Finalize (validate)' });
    expect((validate as HTMLButtonElement).disabled).toBe(true);
    expect(document.getElementById(validate.getAttribute('aria-describedby')!)?.textContent).toMatch(/^Some checks failed/);
  });

  it('a cancellation needs its reason before anything is sent; a lost race is said once with the state in words', async () => {
    const served = serveApi(
      companies,
      noCertificates,
      answer(cargoEndpoints.get, cargo(3)),
      refuse(cargoEndpoints.changeStatus, 'INVALID_TRANSITION', { current: 'validated', allowed: ['released', 'cancelled'] }),
    );
    open();
    const dialog = await noteAskedFirst(served, { button: 'Cancel cargo', method: 'PUT' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Finalize (validate)' }));
    await saidOnce('This cannot be done now: it is Validated. What can be done: Released, Cancelled.');
    expect(served.sent.get('PUT /api/cargos/3/status')).toEqual([{ status: 'validated', reason: null }]);
  });

  it('a validated cargo offers a certificate; a conflicting application is said once', async () => {
    serveApi(
      companies,
      noCertificates,
      answer(cargoEndpoints.get, cargo(3, { status: 'validated' })),
      refuse(certificateEndpoints.apply, 'CONFLICT'),
    );
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Apply for a certificate' }));
    await saidOnce("This cannot be done in the record's current state. Reload it and try again.");
  });

  it('links the certificate a cargo already has', async () => {
    serveApi(
      companies,
      answer(certificateEndpoints.list, page([certificate(1, { cargoId: 3, status: 'approved', allowedActions: [] })], 10)),
      answer(cargoEndpoints.get, cargo(3, { status: 'validated' })),
    );
    open();
    const link = await screen.findByRole('link', { name: /SUC-000001/ });
    expect(link.getAttribute('href')).toBe('/certificates?open=1');
    expect(link.textContent).toContain('Approved');
    expect(screen.queryByRole('button', { name: 'Apply for a certificate' })).toBeNull();
  });

  it('a cargo that is not there (404) is said once, in English and in Swahili', async () => {
    serveApi(companies, noCertificates, refuse(cargoEndpoints.get, 'NOT_FOUND'));
    await saidOnceInEnglishAndSwahili(open, 'errors.notFound');
  });
});
