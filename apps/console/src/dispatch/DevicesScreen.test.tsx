import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { devicesEndpoints } from '@corridor/contracts/devices';
import { positionsEndpoints } from '@corridor/contracts/positions-api';
import { endpoint } from '../api/endpoint';
import { i18n } from '../i18n/i18n';
import { DISPATCHER, deviceFixture, renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import { page, position, PWANI } from '../test/fixtures';
import { companiesList } from '../ui/lookups';
import DevicesScreen from './DevicesScreen';

/**
 * The live device list against contract-shaped answers: each tracker with its state in words, its
 * speed, company and a link to the map when it has a position; searching; no devices yet; nothing
 * matching the search; a refusal said once.
 */
const devicesList = endpoint(devicesEndpoints, 'devices.list');
const positionsList = endpoint(positionsEndpoints, 'positions.list');
const companies = answer(companiesList, page([PWANI], 1000));
const now = new Date().toISOString();
const fix = (deviceId: number, speed: number) => position(deviceId, now, speed);
const open = () => renderAt(<DevicesScreen />, { path: '/devices', user: DISPATCHER });

describe('devices', () => {
  it('lists every tracker with its state, company and a map link when it has a position; search narrows it', async () => {
    serveApi(
      companies,
      answer(devicesList, [
        deviceFixture(7, 'Truck 07', { model: 'GT06N' }),
        deviceFixture(8, 'Truck 08', { status: 'offline' }),
        deviceFixture(9, 'Truck 09', { status: 'unknown' }),
      ]),
      answer(positionsList, [fix(7, 30), fix(8, 0)]),
    );
    open();
    const table = await screen.findByRole('table', { name: 'Devices' });
    const row = (await within(table).findByText('Truck 07')).closest('tr')!;
    expect(row.textContent).toContain('Moving');
    expect(row.textContent).toContain('GT06N');
    await waitFor(() => expect(row.textContent).toContain('Pwani Freight Movers Ltd'));
    expect(within(row).getByRole('link', { name: 'Show on map' }).getAttribute('href')).toBe('/map?device=7');
    const offline = within(table).getByText('Truck 08').closest('tr')!;
    expect(offline.textContent).toContain('Offline');
    // its last speed is not its speed now
    expect(offline.textContent).not.toContain('km/h');
    expect(row.textContent).toContain('56 km/h');
    const silent = within(table).getByText('Truck 09').closest('tr')!;
    expect(silent.textContent).toContain('No signal');
    expect(within(silent).queryByRole('link')).toBeNull();
    expect(screen.getByText('Showing 3 of 3 trucks')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'Truck 08' } });
    expect(await screen.findByText('Showing 1 of 3 trucks')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'Lorry' } });
    expect(await screen.findByText('No device matches')).toBeTruthy();
    expect(screen.getByText('Clear the search or the state filter to see every device.')).toBeTruthy();
  });

  it('says when there are no trucks yet, in English and in Swahili', async () => {
    serveApi(companies, answer(devicesList, []), answer(positionsList, []));
    const view = open();
    expect(await screen.findByText('No trucks yet')).toBeTruthy();
    expect(screen.getByText('Trucks appear here once their trackers are registered as devices and report a position.')).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('map.noTrucks'))).toBeTruthy();
  });

  it('a refusal is said once, in words', async () => {
    serveApi(companies, refuse(devicesList, 'FORBIDDEN'), answer(positionsList, []));
    open();
    await saidOnce('You are not allowed to do this.');
  });
});
