import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@corridor/contracts/users';
import { i18n } from '../i18n/i18n';
import { apiError, deviceFixture, get, renderAt, serveApi } from '../test/api-stub';
import { swahili } from '../test/contract-api';
import ReportsScreen from './ReportsScreen';

/**
 * The report screen's device picker against a stand-in for the API: a search narrows the list,
 * "select all shown" chooses what it shows (and the downloads ask for exactly those), groups are
 * offered when there are some, and a refused report is said in the page, worded.
 */
const ANALYST = {
  id: 3,
  name: 'Analyst',
  email: 'analyst@corridor.test',
  roles: ['association_analyst'],
  companyId: null,
  disabled: false,
  readonly: false,
  attributes: {},
} as unknown as User;
const fleet = [deviceFixture(1, 'Truck 01'), deviceFixture(2, 'Truck 02'), deviceFixture(3, 'Tanker 11'), deviceFixture(4, 'Truck 03')];
const devices = get('/api/devices', (q: URLSearchParams) => (q.get('offset') === '0' ? fleet : []));

/** jsdom has no object URLs: a stand-in that says whether a file was handed to the browser. */
function blobUrls(made: () => string) {
  Object.defineProperty(URL, 'createObjectURL', { value: made, configurable: true, writable: true });
  Object.defineProperty(URL, 'revokeObjectURL', { value: () => undefined, configurable: true, writable: true });
}

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
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

  it("a report the server refuses is said in the page, worded, not the server's English", async () => {
    // the refusal as ops-api's reports/period.ts makes it
    serveApi(devices, get('/api/groups', []), ({ url }) =>
      url.pathname === '/api/reports/summary'
        ? apiError(400, 'VALIDATION_FAILED', 'A report covers at most 92 days and this period spans 120: choose a shorter period', {
            fields: ['from', 'to'],
            maxPeriodDays: 92,
            periodDays: 120,
          })
        : undefined,
    );
    renderAt(<ReportsScreen />, { path: '/reports', user: ANALYST });
    fireEvent.click(await screen.findByRole('checkbox', { name: /Truck 01/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Show report' }));
    expect(await screen.findByText('A report covers at most 92 days, and this period spans 120. Choose a shorter period.')).toBeTruthy();
  });

  it('a refused download is said on the page under its own heading, and no file is made', async () => {
    const made = vi.fn(() => 'blob:x');
    blobUrls(made);
    serveApi(devices, get('/api/groups', []), ({ url }) =>
      url.pathname === '/api/reports/trips'
        ? apiError(400, 'VALIDATION_FAILED', 'A report covers at most 92 days and this period spans 120', {
            fields: ['from', 'to'],
            maxPeriodDays: 92,
            periodDays: 120,
          })
        : undefined,
    );
    renderAt(<ReportsScreen />, { path: '/reports', user: ANALYST });
    fireEvent.change(screen.getByLabelText('Report'), { target: { value: 'trips' } });
    fireEvent.click(await screen.findByRole('checkbox', { name: /Truck 01/ }));
    fireEvent.click(screen.getByRole('link', { name: 'Download Excel' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The file could not be made');
    expect(alert.textContent).toContain('A report covers at most 92 days, and this period spans 120. Choose a shorter period.');
    expect(made).not.toHaveBeenCalled();
  });

  it("a download that works is handed to the browser under the server's file name", async () => {
    const made = vi.fn(() => 'blob:x');
    blobUrls(made);
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    serveApi(devices, get('/api/groups', []), ({ url }) =>
      url.pathname === '/api/reports/summary'
        ? new Response('Device,Distance (km)\n', {
            status: 200,
            headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="summary-2026-11-01-2026-11-29.csv"' },
          })
        : undefined,
    );
    renderAt(<ReportsScreen />, { path: '/reports', user: ANALYST });
    fireEvent.click(await screen.findByRole('checkbox', { name: /Truck 01/ }));
    fireEvent.click(screen.getByRole('link', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toEqual(['summary-2026-11-01-2026-11-29.csv']));
    expect(made).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("a trips report reads in the user's units, its chart too (miles and mph here), in English and Swahili", async () => {
    const trip = (deviceId: number, name: string, metres: number, avgKnots: number, topKnots: number) => ({
      deviceId,
      deviceName: name,
      distance: metres,
      gapDistance: 0,
      averageSpeed: avgKnots,
      maxSpeed: topKnots,
      spentFuel: 0,
      startOdometer: null,
      endOdometer: null,
      startTime: '2026-11-20T08:00:00.000Z',
      endTime: '2026-11-20T09:00:00.000Z',
      startPositionId: 1,
      endPositionId: 2,
      startLat: -3.4,
      startLon: 38.5,
      endLat: -3.2,
      endLon: 38.9,
      duration: 3_600_000,
    });
    serveApi(devices, get('/api/groups', []), ({ url }) =>
      // 80,467 m = 50 mi at 43.45 kn = 50 mph, top 52.14 kn = 60 mph; two trips of Truck 02 add up to 10 mi
      url.pathname === '/api/reports/trips'
        ? new Response(
            JSON.stringify([
              trip(1, 'Truck 01', 80_467, 43.45, 52.14),
              trip(2, 'Truck 02', 8_046.7, 20, 30),
              { ...trip(2, 'Truck 02', 8_046.7, 20, 30), startTime: '2026-11-20T10:00:00.000Z', endTime: '2026-11-20T11:00:00.000Z' },
            ]),
            { status: 200, headers: { 'content-type': 'application/json' } },
          )
        : undefined,
    );
    const inMiles = { ...ANALYST, attributes: { speedUnit: 'mph', distanceUnit: 'mi' } } as unknown as User;
    const open = async () => {
      const view = renderAt(<ReportsScreen />, { path: '/reports', user: inMiles });
      fireEvent.change(await screen.findByRole('combobox', { name: /^(Report|Ripoti)/ }), { target: { value: 'trips' } });
      fireEvent.click(await screen.findByRole('checkbox', { name: /Truck 01/ }));
      fireEvent.click(screen.getByRole('checkbox', { name: /Truck 02/ }));
      fireEvent.click(screen.getByRole('button', { name: /^(Show report|Onyesha ripoti)$/ }));
      return view;
    };
    const view = await open();
    const table = await screen.findByRole('table', { name: 'Trips' });
    expect(screen.getByText(/^3 rows in [\d.]+ s\.$/)).toBeTruthy();
    const first = within(table).getAllByRole('row')[1]!;
    expect(first.textContent).toContain('50 mi');
    expect(first.textContent).toContain('50 mph');
    expect(first.textContent).toContain('60 mph');
    expect(table.textContent).not.toMatch(/km/);
    // the chart's figures (its table for screen readers): miles per device, headed in words
    const chart = screen.getByRole('figure', { name: 'Distance (mi) per device' });
    const figures = within(chart).getByRole('table', { name: 'Distance (mi) per device' });
    expect(
      within(figures)
        .getAllByRole('row')
        .map((r) => [...r.children].map((c) => c.textContent)),
    ).toEqual([
      ['Device', 'Distance (mi) per device'],
      ['Truck 01', '50'],
      ['Truck 02', '10'],
    ]);
    view.unmount();
    await i18n.changeLanguage('sw');
    await open();
    const sw = await screen.findByRole('figure', { name: 'Umbali (mi) kwa kila kifaa' });
    expect(within(sw).getAllByRole('columnheader')[0]!.textContent).toBe(swahili('reports.device'));
  });
});
