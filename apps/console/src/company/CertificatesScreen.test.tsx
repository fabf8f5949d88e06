import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { renderAt, serveApi, type Handler } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import { cargoItem, certificate, COMPANY_USER, page, userAs } from '../test/fixtures';
import { cargoEndpoints } from './cargo';
import CertificatesScreen from './CertificatesScreen';
import { certificateEndpoints } from './certificates';

/**
 * The company's certificates against contract-shaped answers: the list and the certificate opened
 * beside it; an application checked by the contract's CertificateApplyInput before it is sent; no
 * certificates yet; no cargo left to apply for; refusals (the list, an application, a payment
 * reference) said once, in words.
 */
const AGENT = userAs(41, 'Wakala', ['clearing_agent'], 101);
const open = (user = AGENT, path = '/certificates') => renderAt(<CertificatesScreen />, { path, route: '/certificates', user });
const validatedCargo = (...items: ReturnType<typeof cargoItem>[]) => answer(cargoEndpoints.listCompany, page(items, 100));
const certs = (...items: ReturnType<typeof certificate>[]): Handler => answer(certificateEndpoints.list, page(items));

describe('certificates', () => {
  it('lists the certificates and opens one beside the list', async () => {
    serveApi(
      validatedCargo(),
      certs(
        certificate(1, {
          status: 'approved',
          allowedActions: [],
          decision: { at: '2026-11-21T09:00:00.000Z', by: { userId: 5, email: 'officer@corridor.test' }, reason: null },
        }),
      ),
      answer(certificateEndpoints.get, certificate(1, { status: 'approved', allowedActions: [] })),
    );
    open(COMPANY_USER);
    const button = await screen.findByRole('button', { name: 'SUC-000001' });
    const row = button.closest('tr')!;
    expect(within(row).getByRole('link', { name: 'E26001' }).getAttribute('href')).toBe('/cargo/31');
    expect(row.textContent).toContain('Approved');
    expect(row.textContent).toMatch(/5,000/);
    // a company user may not apply (the contract lets clearing agents)
    expect(screen.queryByRole('form', { name: 'Apply for a certificate' })).toBeNull();
    fireEvent.click(button);
    const card = await screen.findByTestId('certificate-card');
    expect(within(card).getByRole('heading', { name: 'Certificate SUC-000001' })).toBeTruthy();
    expect(within(card).getByText('V1CODE')).toBeTruthy();
  });

  it('checks an application against the contract before sending it; a conflicting one is said once', async () => {
    const served = serveApi(validatedCargo(cargoItem(3, { status: 'validated' })), certs(), refuse(certificateEndpoints.apply, 'CONFLICT'));
    open();
    const form = await screen.findByRole('form', { name: 'Apply for a certificate' });
    await within(form).findByRole('option', { name: 'E26003 · Dubai Traders LLC' });
    fireEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    const select = within(form).getByLabelText(/^Validated cargo/);
    await waitFor(() => expect(select.getAttribute('aria-invalid')).toBe('true'));
    expect(within(form).getByText('Fill this in.')).toBeTruthy();
    expect(served.asked.filter((a) => a.startsWith('POST'))).toEqual([]);
    fireEvent.change(select, { target: { value: '3' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Apply' }));
    await saidOnce("This cannot be done in the record's current state. Reload it and try again.");
    expect(served.sent.get('POST /api/single-use-certificates/apply')).toEqual([{ cargoId: 3 }]);
  });

  it('says when there are no certificates yet and no cargo to apply for, in English and in Swahili', async () => {
    serveApi(validatedCargo(), certs());
    const view = open();
    expect(await screen.findByText('No certificates yet')).toBeTruthy();
    expect(screen.getByText('Apply for a single-use certificate for a validated cargo.')).toBeTruthy();
    expect(screen.getByText('Every validated cargo already has a certificate. Validate a cargo to apply for another.')).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('certificates.empty'))).toBeTruthy();
    expect(screen.getByText(swahili('certificates.noEligible'))).toBeTruthy();
  });

  it('a server that is down is said once, and not as "every cargo has a certificate"', async () => {
    serveApi(validatedCargo(), refuse(certificateEndpoints.list, 'UNAVAILABLE'));
    open();
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
    expect(screen.queryByText(/Every validated cargo already has a certificate/)).toBeNull();
  });

  it('a payment reference the server refuses is said once, under its field', async () => {
    const applied = certificate(2, { status: 'applied', allowedActions: ['generate'], payment: null, generatedAt: null });
    const served = serveApi(
      validatedCargo(),
      certs(applied),
      answer(certificateEndpoints.get, applied),
      refuse(certificateEndpoints.generate, 'VALIDATION_FAILED', [
        {
          in: 'body',
          path: 'body.paymentReference',
          code: 'invalid_format',
          format: 'regex',
          message: 'letters, digits and dashes, 4 to 64',
        },
      ]),
    );
    open(AGENT, '/certificates?open=2');
    const pay = await screen.findByRole('form', { name: 'Pay the fee and generate' });
    // the contract's CertificateGenerateInput refuses it before anything is sent
    const reference = within(pay).getByLabelText(/^Payment reference/);
    fireEvent.change(reference, { target: { value: 'QK7!' } });
    fireEvent.click(within(pay).getByRole('button', { name: /Generate/ }));
    await saidOnce('This value is not valid.');
    expect(served.asked.filter((a) => a.startsWith('POST'))).toEqual([]);
    // one the server refuses all the same: said once, under the field
    fireEvent.change(reference, { target: { value: 'QK7310042X' } });
    fireEvent.click(within(pay).getByRole('button', { name: /Generate/ }));
    await waitFor(() =>
      expect(served.sent.get('POST /api/single-use-certificates/2/generate-and-upload')).toEqual([
        { paymentMethod: 'mpesa', paymentReference: 'QK7310042X' },
      ]),
    );
    await saidOnce('This value is not valid.');
    expect(screen.queryByText(/paymentReference/)).toBeNull();
  });
});
