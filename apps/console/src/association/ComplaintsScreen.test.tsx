import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ComplaintStatus } from '@corridor/contracts/complaints';
import { noticeWord } from '@corridor/contracts/notice-text';
import { i18n } from '../i18n/i18n';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import { complaint, OFFICER, page, PWANI } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import { complaintEndpoints } from './association';
import ComplaintsScreen from './ComplaintsScreen';

/**
 * The complaints list against contract-shaped answers: the complaints with their subject, category
 * and state in words; none yet; none matching a filter; a refusal said once, in words.
 */
const companies = answer(companiesList, page([PWANI], 1000));
// the list item is a Complaint: the detail's history is not part of it
const item = (id: number, extra: Parameters<typeof complaint>[1] = {}) => {
  const { history: _, ...c } = complaint(id, extra);
  return c;
};
const open = () => renderAt(<ComplaintsScreen />, { path: '/complaints', user: OFFICER });

describe('complaints', () => {
  it('lists complaints with whom they are against, their category and state in words', async () => {
    serveApi(
      companies,
      answer(
        complaintEndpoints.list,
        page([item(1), item(2, { subjectType: 'truck', subjectRef: 'KCA 123A', category: 'unsafe_driving', status: 'under_review' })]),
      ),
    );
    open();
    const table = await screen.findByRole('table', { name: 'Complaints' });
    const link = await within(table).findByRole('link', { name: 'Truck late at Malaba (1)' });
    expect(link.getAttribute('href')).toBe('/complaints/1');
    const first = link.closest('tr')!;
    await waitFor(() => expect(first.textContent).toContain('Pwani Freight Movers Ltd · Company'));
    expect(first.textContent).toContain('Delay');
    expect(first.textContent).toContain('Open');
    const second = within(table).getByRole('link', { name: 'Truck late at Malaba (2)' }).closest('tr')!;
    expect(second.textContent).toContain('Truck KCA 123A');
    expect(second.textContent).toContain('Unsafe driving');
    expect(second.textContent).toContain('Under review');
  });

  it('says when there are none, and when none matches the filters, in sentences', async () => {
    const served = serveApi(companies, answer(complaintEndpoints.list, page([])));
    open();
    expect(await screen.findByText('No complaints')).toBeTruthy();
    expect(screen.getByText('Complaints filed by anyone against a company, driver, truck or journey flag appear here.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Category'), { target: { value: 'cargo_loss' } });
    expect(await screen.findByText('No complaint matches')).toBeTruthy();
    expect(screen.getByText('Clear the filters to see everything.')).toBeTruthy();
    expect(served.asked.some((a) => a.includes('category=cargo_loss'))).toBe(true);
  });

  it('in Swahili, the categories and states read as the notices word them (contracts notice-text)', async () => {
    serveApi(companies, answer(complaintEndpoints.list, page([item(2, { category: 'unsafe_driving', status: 'under_review' })])));
    await i18n.changeLanguage('sw');
    open();
    const table = await screen.findByRole('table', { name: swahili('complaints.title') });
    const row = (await within(table).findByRole('link', { name: 'Truck late at Malaba (2)' })).closest('tr')!;
    expect(row.textContent).toContain(noticeWord('categories', 'unsafe_driving', 'sw'));
    expect(row.textContent).toContain('Uendeshaji hatari');
    expect(within(row).getByText(noticeWord('complaintStatus', 'under_review', 'sw')).className).toContain('pill');
    const states = within(screen.getByLabelText(swahili('shipments.status')))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(states).toEqual(expect.arrayContaining(ComplaintStatus.options.map((s) => noticeWord('complaintStatus', s, 'sw'))));
  });

  it('in Swahili, the empty list reads in Swahili', async () => {
    serveApi(companies, answer(complaintEndpoints.list, page([])));
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('complaints.empty'))).toBeTruthy();
    expect(screen.getByText(swahili('complaints.emptyHint'))).toBeTruthy();
  });

  it('a refusal (403) is said once, in words', async () => {
    serveApi(companies, refuse(complaintEndpoints.list, 'FORBIDDEN'));
    open();
    await saidOnce('You are not allowed to do this.');
  });
});
