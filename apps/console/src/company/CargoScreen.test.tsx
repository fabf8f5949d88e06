import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { i18n } from '../i18n/i18n';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import { cargoItem, COMPANY_USER, documentRecord, page, userAs } from '../test/fixtures';
import { documentUpload } from '../ui/documents/documents';
import { cargoEndpoints } from './cargo';
import CargoScreen from './CargoScreen';

/**
 * The company's cargo against contract-shaped answers: the list with its checks and state; none
 * yet; an IDF upload that is not sent without a file, and its refusals (the content does not match
 * its type; the IDF cannot be read) said once, as sentences, never the server's English.
 */
const open = (user = COMPANY_USER) => renderAt(<CargoScreen />, { path: '/cargo', user });
const upload = answer(documentUpload, {
  ...documentRecord('0b8f3c52-5d4e-4a1b-8c6d-2e7f9a0b1c3d', { kind: 'idf' }),
  download: { url: '/x', expiresAt: '2026-11-29T00:00:00.000Z' },
});
const pdf = () => new File(['%PDF-1.7 not really'], 'idf.pdf', { type: 'application/pdf' });

describe('cargo', () => {
  it('lists the cargo with its importer, value, checks and state', async () => {
    serveApi(
      answer(
        cargoEndpoints.listCompany,
        page([cargoItem(3), cargoItem(4, { consignor: null, extraction: { ...cargoItem(4).extraction, valid: false } })]),
      ),
    );
    open();
    const link = await screen.findByRole('link', { name: 'E26003' });
    expect(link.getAttribute('href')).toBe('/cargo/3');
    const row = link.closest('tr')!;
    expect(row.textContent).toContain('Pwani Imports');
    expect(row.textContent).toContain('Dubai Traders LLC');
    expect(row.textContent).toMatch(/125,000/);
    expect(row.textContent).toContain('Passed');
    expect(row.textContent).toContain('Submitted');
    const other = screen.getByRole('link', { name: 'E26004' }).closest('tr')!;
    expect(other.textContent).toContain('Needs correction');
  });

  it('says when there is none yet, in English and in Swahili; a dispatcher (who may not read IDFs) gets no upload form', async () => {
    serveApi(answer(cargoEndpoints.listCompany, page([])));
    const view = open();
    expect(await screen.findByText('No cargo yet')).toBeTruthy();
    expect(screen.getByText('Upload an import declaration form (IDF) above: its fields are read and checked for you.')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Read an IDF' })).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open(userAs(42, 'Neema', ['dispatcher'], 101));
    expect(await screen.findByText(swahili('cargo.empty'))).toBeTruthy();
    expect(screen.queryByRole('form', { name: swahili('cargo.upload') })).toBeNull();
  });

  it('sends nothing without a file', async () => {
    const served = serveApi(answer(cargoEndpoints.listCompany, page([])));
    open();
    const form = await screen.findByRole('form', { name: 'Read an IDF' });
    fireEvent.submit(form);
    fireEvent.click(within(form).getByRole('button', { name: 'Upload and read' }));
    expect(served.asked.filter((a) => a.startsWith('POST'))).toEqual([]);
  });

  it('a file whose content does not match its type is said once as a sentence', async () => {
    const mismatch = 'declared as application/pdf but its content does not match';
    serveApi(
      answer(cargoEndpoints.listCompany, page([])),
      refuse(documentUpload, 'UNSUPPORTED_MEDIA_TYPE', { declared: 'application/pdf' }, mismatch),
    );
    open();
    const form = await screen.findByRole('form', { name: 'Read an IDF' });
    await userEvent.upload(within(form).getByLabelText(/^IDF file/), pdf());
    fireEvent.click(within(form).getByRole('button', { name: 'Upload and read' }));
    await saidOnce('The file does not contain what its type says (application/pdf). Choose the file again, or another one.');
    expect(document.body.textContent).not.toContain(mismatch);
  });

  it('an IDF the server cannot read (422) is said once, in Swahili', async () => {
    const served = serveApi(answer(cargoEndpoints.listCompany, page([])), upload, refuse(cargoEndpoints.processIdf, 'UNPROCESSABLE'));
    await i18n.changeLanguage('sw');
    open();
    const form = await screen.findByRole('form', { name: swahili('cargo.upload') });
    await userEvent.upload(within(form).getByLabelText(new RegExp(`^${swahili('cargo.idfFile')}`)), pdf());
    fireEvent.click(within(form).getByRole('button', { name: swahili('cargo.read') }));
    await saidOnce(swahili('errors.unprocessable'));
    await waitFor(() =>
      expect(served.sent.get('POST /api/cargos/process-idf')).toEqual([{ documentId: '0b8f3c52-5d4e-4a1b-8c6d-2e7f9a0b1c3d' }]),
    );
  });
});
