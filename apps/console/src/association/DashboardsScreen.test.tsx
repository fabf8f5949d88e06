import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ComplianceDashboard } from '@corridor/contracts/dashboards';
import { i18n } from '../i18n/i18n';
import { renderAt, serveApi } from '../test/api-stub';
import { answer, fixture, refuse, saidOnce, swahili } from '../test/contract-api';
import { ANALYST, page, PWANI, T0, T1 } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import { complianceKenya, complianceTanzania } from './association';
import DashboardsScreen from './DashboardsScreen';

/**
 * The Kenya and Tanzania compliance dashboards against contract-shaped answers: the figures, the
 * companies with the most violations and the Tanzania tab; a quiet period said in sentences; a
 * refusal said once, in words.
 */
const period = { from: T0, to: T1 };
const dashboard = (country: 'KE' | 'TZ', busy: boolean): ComplianceDashboard =>
  fixture(country === 'KE' ? complianceKenya : complianceTanzania, {
    country,
    period,
    generatedAt: T1,
    companies: 14,
    activeJourneys: { period, active: busy ? 9 : 0, withActivity: 0, trucksReporting: busy ? 7 : 0 },
    flagsByTypeAndWeek: {
      period,
      total: busy ? 5 : 0,
      items: busy
        ? [
            { weekStart: '2026-11-16', flagType: 'overspeed', count: 3 },
            { weekStart: '2026-11-16', flagType: 'offCorridor', count: 2 },
          ]
        : [],
    },
    certificates: { period, pending: busy ? 4 : 0, approved: busy ? 11 : 0, rejected: busy ? 1 : 0 },
    complaintsOpen: { period, open: busy ? 2 : 0, underReview: busy ? 1 : 0, total: busy ? 3 : 0 },
    borderDwell: { period, items: [] },
    companiesWithMostViolations: {
      period,
      items: busy ? [{ companyId: 101, name: null, flags: 4, complaints: 1, sanctions: 1, total: 6 }] : [],
    },
  });
const companies = answer(companiesList, page([PWANI], 1000));
const open = (path = '/dashboards') => renderAt(<DashboardsScreen />, { path, route: '/dashboards', user: ANALYST });
const cards = () => [...document.querySelectorAll('.stat')].map((c) => c.textContent);

describe('compliance dashboards', () => {
  it("shows Kenya's figures and the companies with the most violations; the Tanzania tab asks for Tanzania's", async () => {
    const served = serveApi(companies, answer(complianceKenya, dashboard('KE', true)), answer(complianceTanzania, dashboard('TZ', false)));
    open();
    await screen.findByText('Active journeys');
    expect(cards()).toEqual([
      '9Active journeys',
      '7Trucks reporting',
      '5Flags',
      '4Certificates pending',
      '3Complaints open',
      '14Companies',
    ]);
    const worst = screen.getByRole('heading', { name: 'Companies with the most violations' }).closest('section')!;
    await waitFor(() => expect(within(worst).getByText('Pwani Freight Movers Ltd')).toBeTruthy());
    fireEvent.click(screen.getByRole('tab', { name: 'Tanzania' }));
    await waitFor(() => expect(cards()[0]).toBe('0Active journeys'));
    expect(served.asked.some((a) => a.startsWith('GET /api/association/compliance/tanzania/dashboard?'))).toBe(true);
  });

  it('a quiet period says so in sentences, in English and in Swahili', async () => {
    serveApi(companies, answer(complianceKenya, dashboard('KE', false)));
    const view = open();
    expect(await screen.findByText('No flags in this period')).toBeTruthy();
    expect(screen.getByText('No violations in this period.')).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('dashboards.noFlags'))).toBeTruthy();
    expect(screen.getByText(swahili('dashboards.noViolations'))).toBeTruthy();
  });

  it('a refusal is said once, in words (403, and a period too long)', async () => {
    serveApi(companies, refuse(complianceKenya, 'FORBIDDEN'));
    const view = open();
    await saidOnce('You are not allowed to do this.');
    view.unmount();
    serveApi(companies, refuse(complianceTanzania, 'VALIDATION_FAILED', { maxPeriodDays: 366, periodDays: 500 }));
    open('/dashboards?country=TZ');
    await saidOnce('A report covers at most 366 days, and this period spans 500. Choose a shorter period.');
  });
});
