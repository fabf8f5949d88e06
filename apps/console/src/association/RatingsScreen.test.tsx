import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CompanyRating, RatingStats } from '@corridor/contracts/ratings';
import { i18n } from '../i18n/i18n';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, fixture, refuse, saidOnce, swahili } from '../test/contract-api';
import { ANALYST, page, PWANI, T0, T1 } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import { ratingsList, ratingsStats } from './association';
import RatingsScreen from './RatingsScreen';

/**
 * Company ratings against contract-shaped answers: the figures and every company's grade; no
 * ratings for the period; the statistics or the list refused (each said once, in words), a period
 * the server finds too long said as a sentence.
 */
const period = { from: T0, to: T1 };
const rating = (companyId: number, companyName: string | null, score: number, grade: CompanyRating['grade']): CompanyRating => ({
  companyId,
  companyName,
  score,
  grade,
  components: {
    onTimeDelivery: { delivered: 12, onTime: 9, score: 0.75, weight: 0.4 },
    journeyFlags: { flags: 3, trucks: 4, score: 0.86, weight: 0.3 },
    complaints: { upheld: 1, pending: 0, dismissed: 2, score: 0.78, weight: 0.2 },
    sanctions: { total: 2, points: 3, score: 0.61, weight: 0.1 },
  },
  period,
});
const ratings = [rating(101, null, 78.4, 'B'), rating(202, 'Mlima Haulage', 51.2, 'D')];
const stats = (companies: number): RatingStats =>
  fixture(ratingsStats, {
    period,
    companies,
    averageScore: companies ? 64.8 : null,
    medianScore: companies ? 64.8 : null,
    byGrade: companies ? { A: 0, B: 1, C: 0, D: 1, E: 0 } : { A: 0, B: 0, C: 0, D: 0, E: 0 },
    averageComponentScores: { onTimeDelivery: 0.75, journeyFlags: 0.86, complaints: 0.78, sanctions: 0.61 },
    totals: { delivered: 24, onTime: 18, flags: 6, complaintsUpheld: 2, sanctions: 4 },
    best: [],
    worst: [],
  });
const companies = answer(companiesList, page([PWANI], 1000));
const list = (items: CompanyRating[]) => answer(ratingsList, { ...page(items), period });
const open = () => renderAt(<RatingsScreen />, { path: '/ratings', user: ANALYST });

describe('ratings', () => {
  it("shows the period's figures and each company's grade, score and components", async () => {
    serveApi(companies, answer(ratingsStats, stats(2)), list(ratings));
    open();
    const table = await screen.findByRole('table', { name: 'Ratings' });
    await waitFor(() => expect(within(table).getByText('Pwani Freight Movers Ltd')).toBeTruthy());
    const mlima = within(table).getByText('Mlima Haulage').closest('tr')!;
    expect([...mlima.querySelectorAll('td')].map((td) => td.textContent)).toEqual(['Mlima Haulage', 'D', '51.2', '9/12', '3', '1', '2']);
    expect([...document.querySelectorAll('.stat')].map((c) => c.textContent)).toEqual([
      '64.8Average score',
      '64.8Median score',
      '2Companies',
      '6Flags',
    ]);
  });

  it('says in a sentence when the period has no ratings, in English and in Swahili', async () => {
    serveApi(companies, answer(ratingsStats, stats(0)), list([]));
    const view = open();
    expect(await screen.findByText('No ratings for this period')).toBeTruthy();
    expect(screen.getByText('Ratings come from deliveries, flags, complaints and sanctions in the period.')).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('ratings.empty'))).toBeTruthy();
  });

  it('a grade filter that matches nothing is asked of the server', async () => {
    const served = serveApi(companies, answer(ratingsStats, stats(2)), list(ratings));
    open();
    await screen.findByText('Mlima Haulage');
    fireEvent.change(screen.getByLabelText('Grade'), { target: { value: 'A' } });
    await waitFor(() => expect(served.asked.some((a) => a.startsWith('GET /api/ratings?') && a.includes('grade=A'))).toBe(true));
  });

  it('statistics the server cannot give are said once, while the list still shows', async () => {
    serveApi(companies, refuse(ratingsStats, 'UNAVAILABLE'), list(ratings));
    open();
    await screen.findByText('Mlima Haulage');
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
  });

  it('a period the server refuses as too long is said once as a sentence, not its English', async () => {
    const tooLong = { maxPeriodDays: 366, periodDays: 400 };
    serveApi(companies, refuse(ratingsStats, 'VALIDATION_FAILED', tooLong), refuse(ratingsList, 'VALIDATION_FAILED', tooLong));
    open();
    await saidOnce('A report covers at most 366 days, and this period spans 400. Choose a shorter period.');
  });
});
