import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { devicesEndpoints } from '@corridor/contracts/devices';
import { endpoint } from '../api/endpoint';
import { DISPATCHER, deviceFixture, renderAt, serveApi } from '../test/api-stub';
import { answer, noteAskedFirst, refuse, saidOnce, saidOnceInEnglishAndSwahili, swahili } from '../test/contract-api';
import { i18n } from '../i18n/i18n';
import { journey, journeyDetail, journeyFlag, page, PWANI, userAs } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import JourneyDetailScreen from './JourneyDetailScreen';
import { journeyEndpoints } from './journeys';

/**
 * One journey against contract-shaped answers (the map falls back to its label: no WebGL here):
 * its facts and flags in words; a resolution that needs its note before anything is sent; a
 * cancellation the server refuses said once; no flags; a journey that is not there.
 */
const devices = answer(endpoint(devicesEndpoints, 'devices.list'), [deviceFixture(7, 'Truck 07')]);
const companies = answer(companiesList, page([PWANI], 1000));
const flag = journeyFlag(9, { details: { speedKmh: 96, limitKmh: 80 } });
const open = (user = DISPATCHER) => renderAt(<JourneyDetailScreen />, { path: '/journeys/4', route: '/journeys/:id', user });

describe('journey detail', () => {
  it('shows the journey, its truck, company and route, and its flags in words', async () => {
    serveApi(devices, companies, answer(journeyEndpoints.get, journeyDetail(journey(4, { shipmentRef: 'PWN-9' }), { flags: [flag] })));
    open();
    expect(await screen.findByRole('heading', { name: 'Journey 4 · Northern Corridor' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Truck 07 · KCA 123A')).toBeTruthy());
    await waitFor(() => expect(screen.getByText('Pwani Freight Movers Ltd')).toBeTruthy());
    expect(screen.getByText('KE, UG')).toBeTruthy();
    expect(screen.getByText('PWN-9')).toBeTruthy();
    const flags = screen.getByRole('list', { name: 'Flags' });
    expect(within(flags).getByText('Overspeed')).toBeTruthy();
    expect(within(flags).getByText(/14 km NW of Voi, KE/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel journey' })).toBeTruthy();
  });

  it('a resolution needs its note before anything is sent', async () => {
    const served = serveApi(devices, companies, answer(journeyEndpoints.get, journeyDetail(journey(4), { flags: [flag] })));
    open();
    await noteAskedFirst(served, { button: 'Resolve', title: 'Resolve the Overspeed flag', method: 'POST' });
  });

  it('a cancellation the server refuses (the journey completed meanwhile) is said once, in its dialog', async () => {
    const served = serveApi(
      devices,
      companies,
      answer(journeyEndpoints.get, journeyDetail(journey(4))),
      refuse(journeyEndpoints.cancel, 'INVALID_TRANSITION', { current: 'completed', allowed: [] }),
    );
    open();
    expect(await screen.findByText('No flags on this journey.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel journey' }));
    const dialog = screen.getByRole('heading', { name: 'Cancel this journey?' }).closest('dialog')!;
    fireEvent.change(within(dialog).getByLabelText(/^Reason/), { target: { value: 'Truck broke down' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel journey' }));
    await saidOnce('This cannot be done now: it is Completed.');
    expect(within(dialog).getByRole('alert')).toBeTruthy();
    expect(served.sent.get('POST /api/journey/4/cancel')).toEqual([{ reason: 'Truck broke down' }]);
  });

  it('a company user (who may not cancel) sees no cancel button', async () => {
    serveApi(devices, companies, answer(journeyEndpoints.get, journeyDetail(journey(4))));
    open(userAs(40, 'Amani', ['company_user'], 101));
    await screen.findByRole('heading', { name: 'Journey 4 · Northern Corridor' });
    expect(screen.queryByRole('button', { name: 'Cancel journey' })).toBeNull();
  });

  it('a journey that is not there (404) is said once, in English and in Swahili', async () => {
    serveApi(devices, companies, refuse(journeyEndpoints.get, 'NOT_FOUND'));
    await saidOnceInEnglishAndSwahili(open, 'errors.notFound');
  });

  it("in Swahili, a flag's place and its figures read in Swahili (the server stores English)", async () => {
    serveApi(devices, companies, answer(journeyEndpoints.get, journeyDetail(journey(4), { flags: [flag] })));
    await i18n.changeLanguage('sw');
    open();
    const flags = await screen.findByRole('list', { name: swahili('journey.flags') });
    expect(within(flags).getByText(swahili('flagType.overspeed'))).toBeTruthy();
    expect(within(flags).getByText(/^km 14 kaskazini-magharibi mwa Voi/)).toBeTruthy();
    expect(flags.textContent).not.toMatch(/ of Voi/);
  });
});
