import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { certificateEndpoints } from '../company/certificates';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import { certificate, OFFICER, page, PWANI } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import ApprovalQueueScreen from './ApprovalQueueScreen';

/**
 * The officer's approval queue against a stand-in for the API whose answers are shaped by the
 * contract (ops-api's certificates tests prove what it keeps): the queue, an empty one, the server
 * down, a rejection whose reason the contract finds too short (nothing sent), and refusals said once.
 */
const companies = answer(companiesList, page([PWANI], 1000));
const queue = (...items: ReturnType<typeof certificate>[]) => answer(certificateEndpoints.list, page(items));
const open = () => renderAt(<ApprovalQueueScreen />, { path: '/approvals', user: OFFICER });

describe('approval queue', () => {
  it('lists the submitted certificates with their company, IDF and value', async () => {
    serveApi(
      companies,
      queue(certificate(1), certificate(2, { cargo: { idfNumber: 'E26002', importerName: 'X', invoiceValue: null, currency: null } })),
    );
    open();
    const table = await screen.findByRole('table', { name: 'Approval queue' });
    const row = (await within(table).findByText('SUC-000001')).closest('tr')!;
    await waitFor(() => expect(row.textContent).toContain('Pwani Freight Movers Ltd'));
    expect(row.textContent).toContain('E26001');
    expect(row.textContent).toMatch(/125,000/);
    expect(screen.getByText('2 certificates waiting')).toBeTruthy();
  });

  it('says in a sentence when nothing waits, in English and in Swahili', async () => {
    serveApi(companies, queue());
    const view = open();
    expect(await screen.findByText('Nothing waiting')).toBeTruthy();
    expect(screen.getByText('Certificates appear here once a clearing agent has paid for them and submitted them.')).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('approvals.empty'))).toBeTruthy();
    expect(screen.getByText(swahili('approvals.emptyHint'))).toBeTruthy();
  });

  it('says once, in words, that the server is down', async () => {
    serveApi(companies, refuse(certificateEndpoints.list, 'UNAVAILABLE'));
    open();
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
  });

  it('checks a rejection reason against the contract before sending; a refused rejection is said once, in its dialog', async () => {
    const served = serveApi(
      companies,
      queue(certificate(1)),
      refuse(certificateEndpoints.reject, 'INVALID_TRANSITION', { current: 'approved', allowed: [] }),
    );
    open();
    const table = await screen.findByRole('table', { name: 'Approval queue' });
    await within(table).findByText('SUC-000001');
    fireEvent.click(within(table).getByRole('button', { name: 'Reject' }));
    const dialog = screen.getByText('Reject certificate SUC-000001').closest('dialog')!;
    const reason = within(dialog).getByLabelText(/^Reason/);
    fireEvent.change(reason, { target: { value: 'bad' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Enter at least 5 characters.')).toBeTruthy();
    expect(served.asked.filter((a) => a.startsWith('POST'))).toEqual([]);
    fireEvent.change(reason, { target: { value: 'Stamp missing on page 2' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await saidOnce('This cannot be done now: it is Approved.');
    expect(within(dialog).getByRole('alert').textContent).toBe('This cannot be done now: it is Approved.');
    expect(served.sent.get('POST /api/single-use-certificates/1/reject')).toEqual([{ reason: 'Stamp missing on page 2' }]);
  });

  it('an approval the server refuses (403) is said once on the page, in Swahili too', async () => {
    serveApi(companies, queue(certificate(1)), refuse(certificateEndpoints.approve, 'FORBIDDEN'));
    await i18n.changeLanguage('sw');
    open();
    const table = await screen.findByRole('table', { name: swahili('approvals.title') });
    await within(table).findByText('SUC-000001');
    fireEvent.click(within(table).getByRole('button', { name: swahili('approvals.approve') }));
    await saidOnce(swahili('errors.forbidden'));
  });
});
