import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { devicesEndpoints } from '@corridor/contracts/devices';
import { routesEndpoints } from '@corridor/contracts/routes';
import { endpoint } from '../api/endpoint';
import { i18n } from '../i18n/i18n';
import { DISPATCHER, deviceFixture, renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import { journey, page, PWANI, route, userAs } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import { journeyEndpoints } from './journeys';
import JourneysBoardScreen from './JourneysBoardScreen';

/**
 * The journeys board against contract-shaped answers: active journeys with their truck, route,
 * company and state; the flagged tab with each journey's open flags in words and its count; a new
 * journey only for those the contract lets create; each tab's empty state; a refusal said once.
 */
const devices = answer(endpoint(devicesEndpoints, 'devices.list'), [deviceFixture(7, 'Truck 07')]);
const routes = answer(endpoint(routesEndpoints, 'routes.list'), [route(1, 'Northern Corridor')]);
const companies = answer(companiesList, page([PWANI], 1000));
const flaggedOne = journey(5, { flagged: true, openFlags: ['overspeed', 'offCorridor'] });
const open = (user = DISPATCHER, path = '/journeys') => renderAt(<JourneysBoardScreen />, { path, route: '/journeys', user });

describe('journeys board', () => {
  it('lists active journeys with truck, route, company and state; the flagged tab shows each open flag in words', async () => {
    const served = serveApi(
      devices,
      routes,
      companies,
      answer(journeyEndpoints.active, [journey(4)]),
      answer(journeyEndpoints.flagged, [flaggedOne]),
    );
    open();
    const link = await screen.findByRole('link', { name: 'Journey 4' });
    expect(link.getAttribute('href')).toBe('/journeys/4');
    const row = link.closest('tr')!;
    await waitFor(() => expect(row.textContent).toContain('Truck 07 · KCA 123A'));
    await waitFor(() => expect(row.textContent).toContain('Pwani Freight Movers Ltd'));
    expect(row.textContent).toContain('Northern Corridor');
    expect(row.textContent).toContain('Active');
    expect(screen.getByRole('link', { name: 'New journey' })).toBeTruthy();
    const flaggedTab = screen.getByRole('tab', { name: /Flagged/ });
    await waitFor(() => expect(flaggedTab.textContent).toBe('Flagged1'));
    fireEvent.click(flaggedTab);
    const flagged = (await screen.findByRole('link', { name: 'Journey 5' })).closest('tr')!;
    expect(within(flagged).getByText('Overspeed')).toBeTruthy();
    expect(within(flagged).getByText('Off corridor')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Flag type'), { target: { value: 'overspeed' } });
    await waitFor(() =>
      expect(served.asked.some((a) => a.startsWith('GET /api/journey/flagged?') && a.includes('flagType=overspeed'))).toBe(true),
    );
  });

  it("says when a tab is empty, in English and in Swahili; an analyst (who may not create) gets no 'New journey'", async () => {
    serveApi(
      devices,
      routes,
      companies,
      answer(journeyEndpoints.active, []),
      answer(journeyEndpoints.flagged, []),
      answer(journeyEndpoints.completed, []),
    );
    const view = open();
    expect(await screen.findByText('No journeys under way')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Completed' }));
    expect(await screen.findByText('No completed journeys yet')).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open(userAs(6, 'Baraka', ['association_analyst']));
    expect(await screen.findByText(swahili('journeys.empty.active'))).toBeTruthy();
    expect(screen.getByText(swahili('journeys.emptyHint.active'))).toBeTruthy();
    expect(screen.queryByRole('link', { name: swahili('journeys.create') })).toBeNull();
  });

  it('a refusal is said once, in words', async () => {
    serveApi(devices, routes, companies, answer(journeyEndpoints.flagged, []), refuse(journeyEndpoints.active, 'UNAVAILABLE'));
    open();
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
  });
});
