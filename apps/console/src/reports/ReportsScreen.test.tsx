import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { User } from '@corridor/contracts/users';
import { i18n } from '../i18n/i18n';
import { apiError, deviceFixture, get, renderAt, serveApi } from '../test/api-stub';
import ReportsScreen from './ReportsScreen';

/**
 * The report screen's device picker against a stand-in for the API: a search narrows the list,
 * "select all shown" chooses what it shows (and the downloads ask for exactly those), groups are
 * offered when there are some, and a refused report is said in the page, worded.
 */
const ANALYST = { id: 3, name: 'Analyst', email: 'analyst@corridor.test', roles: ['association_analyst'], companyId: null, disabled: false, readonly: false, attributes: {} } as unknown as User;
const fleet = [deviceFixture(1, 'Truck 01'), deviceFixture(2, 'Truck 02'), deviceFixture(3, 'Tanker 11'), deviceFixture(4, 'Truck 03')];
const devices = get('/api/devices', (q: URLSearchParams) => (q.get('offset') === '0' ? fleet : []));

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

const chosenIds = (href: string | null) => new URL(href!, 'http://console.test').searchParams.getAll('deviceId').map(Number).sort();

describe('reports: choosing devices', () => {
  it('searches, selects all it shows, and the downloads ask for exactly those', async () => {
    serveApi(devices, get('/api/groups', []));
    renderAt(<ReportsScreen />, { path: '/reports', user: ANALYST });
    const list = await screen.findByRole('group', { name: 'Devices' });
    await within(list).findByText('Tanker 11');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search devices' }), { target: { value: 'truck' } });
    expect(within(list).queryByText('Tanker 11')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Select all 3 shown' }));
    expect(screen.getByText('3 of 4 devices and 0 groups chosen')).toBeTruthy();
    expect(chosenIds(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))).toEqual([1, 2, 4]);
    expect(screen.getByText('No device groups yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getByText('0 of 4 devices and 0 groups chosen')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download CSV' })).toBeNull(); // an anchor without href: nothing to download
  });

  it('offers groups in Swahili, and a search that matches nothing says so', async () => {
    await i18n.changeLanguage('sw');
    serveApi(devices, get('/api/groups', [{ id: 5, name: 'Mombasa fleet', groupId: 0, companyId: 101, attributes: {} }]));
    renderAt(<ReportsScreen />, { path: '/reports', user: ANALYST });
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Mombasa fleet' }));
    expect(screen.getByText('Vifaa 0 kati ya 4 na makundi 1 vimechaguliwa')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Tafuta vifaa' }), { target: { value: 'lorry' } });
    expect(screen.getByText('Hakuna kifaa kinacholingana na utafutaji huu.')).toBeTruthy();
  });

  it('a report the server refuses is said in the page, worded, not the server\'s English', async () => {
    // the refusal as ops-api's reports/period.ts makes it
    serveApi(devices, get('/api/groups', []), ({ url }) =>
      url.pathname === '/api/reports/summary'
        ? apiError(400, 'VALIDATION_FAILED', 'A report covers at most 92 days and this period spans 120: choose a shorter period', { fields: ['from', 'to'], maxPeriodDays: 92, periodDays: 120 })
        : undefined);
    renderAt(<ReportsScreen />, { path: '/reports', user: ANALYST });
    fireEvent.click(await screen.findByRole('checkbox', { name: /Truck 01/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Show report' }));
    expect(await screen.findByText('A report covers at most 92 days, and this period spans 120. Choose a shorter period.')).toBeTruthy();
  });
});
