import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, noteAskedFirst, refuse, saidOnce, saidOnceInEnglishAndSwahili } from '../test/contract-api';
import { ANALYST, complaint, OFFICER, page, PWANI, T1 } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import { complaintEndpoints } from './association';
import ComplaintDetailScreen from './ComplaintDetailScreen';

/**
 * One complaint against contract-shaped answers: its facts and history; the moves the server
 * allows, a dismissal that needs its note before anything is sent, a move refused because the
 * complaint moved meanwhile (said once, with its state in words); a missing complaint.
 */
const companies = answer(companiesList, page([PWANI], 1000));
const open = (user = OFFICER) => renderAt(<ComplaintDetailScreen />, { path: '/complaints/3', route: '/complaints/:id', user });

describe('complaint detail', () => {
  it('shows the complaint, whom it is against, its history and the moves allowed now', async () => {
    serveApi(companies, answer(complaintEndpoints.get, complaint(3, { journeyId: '42' })));
    open();
    expect(await screen.findByRole('heading', { name: 'Truck late at Malaba (3)' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/Pwani Freight Movers Ltd · Company/)).toBeTruthy());
    expect(screen.getByText('The truck arrived two days after the agreed date.')).toBeTruthy();
    expect(screen.getByText(/^shipper@mteja\.test ·/)).toBeTruthy();
    const moves = screen.getByRole('region', { name: 'Status moves' });
    expect(
      within(moves)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Start review', 'Dismiss']);
  });

  it('says when no move is open, and an analyst (who may not move it) sees no moves', async () => {
    serveApi(companies, answer(complaintEndpoints.get, complaint(3, { status: 'closed', allowedNextStatuses: [] })));
    const view = open();
    expect(await screen.findByText('No moves are open to you from this state.')).toBeTruthy();
    view.unmount();
    open(ANALYST);
    await screen.findByRole('heading', { name: 'Truck late at Malaba (3)' });
    expect(screen.queryByRole('region', { name: 'Status moves' })).toBeNull();
  });

  it('a dismissal needs its note before anything is sent; a refused move is said once, with the state in words', async () => {
    const served = serveApi(
      companies,
      answer(complaintEndpoints.get, complaint(3)),
      refuse(complaintEndpoints.setStatus, 'INVALID_TRANSITION', { current: 'resolved', allowed: ['open'] }),
    );
    open();
    const dialog = await noteAskedFirst(served, { button: 'Dismiss', method: 'PUT' });
    fireEvent.change(within(dialog).getByLabelText('Note'), { target: { value: 'Not a matter for the association' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await saidOnce('This cannot be done now: it is Resolved. What can be done: Open.');
    expect(served.sent.get('PUT /api/complaints/3/status')).toEqual([{ status: 'dismissed', note: 'Not a matter for the association' }]);
  });

  it('a complaint that is gone (404) is said once, in English and in Swahili', async () => {
    serveApi(companies, refuse(complaintEndpoints.get, 'NOT_FOUND'));
    await saidOnceInEnglishAndSwahili(open, 'errors.notFound');
  });

  it('a decided complaint says until when it may be reopened', async () => {
    serveApi(
      companies,
      answer(
        complaintEndpoints.get,
        complaint(3, { status: 'resolved', resolution: 'Fined', decidedAt: T1, reopenUntil: T1, allowedNextStatuses: ['open', 'closed'] }),
      ),
    );
    open();
    expect(await screen.findByText(/^May be reopened until /)).toBeTruthy();
    expect(screen.getByText('Fined')).toBeTruthy();
  });
});
