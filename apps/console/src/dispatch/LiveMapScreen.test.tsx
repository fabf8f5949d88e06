import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@corridor/contracts';
import { devicesEndpoints } from '@corridor/contracts/devices';
import { journeysEndpoints } from '@corridor/contracts/journeys';
import { positionsEndpoints } from '@corridor/contracts/positions-api';
import { endpoint } from '../api/endpoint';
import { i18n } from '../i18n/i18n';
import { DISPATCHER, deviceFixture, renderAt, serveApi } from '../test/api-stub';
import { answer, refuse, saidOnce, saidOnceInEnglishAndSwahili, swahili } from '../test/contract-api';
import { journey, position } from '../test/fixtures';
import LiveMapScreen from './LiveMapScreen';

/**
 * The dispatcher's live map against contract-shaped answers (the map itself falls back to its
 * label: no WebGL here, so the label's count is what the map was given): the fleet list with each
 * truck's state and speed in words and counts per state; search and a state filter narrowing the
 * list and the map alike; a truck chosen from the list (or named in the address) opening its card
 * with its position in the user's coordinate format and a link to its journey; no trucks yet; the
 * server down said once; in Swahili.
 */
const devicesList = endpoint(devicesEndpoints, 'devices.list');
const positionsList = endpoint(positionsEndpoints, 'positions.list');
const active = endpoint(journeysEndpoints, 'journeys.active');
const flagged = endpoint(journeysEndpoints, 'journeys.flagged');
const now = () => new Date().toISOString();
const fleet = () => [
  answer(devicesList, [deviceFixture(7, 'Truck 07'), deviceFixture(8, 'Truck 08'), deviceFixture(9, 'Truck 09', { status: 'offline' })]),
  // 30 kn moving near Voi; 0 kn stopped; Truck 09 never reported
  answer(positionsList, [
    position(7, now(), 30, { latitude: -3.3963, longitude: 38.5561 }),
    position(8, now(), 0, { latitude: -1.29, longitude: 36.82 }),
  ]),
  answer(active, [journey(4, { deviceId: 7 })]),
  answer(flagged, []),
];
const open = (path = '/map', user: User = DISPATCHER) => renderAt(<LiveMapScreen />, { path, route: '/map', user });
const mapLabel = () => screen.getByRole('region').getAttribute('aria-label');

describe('live map', () => {
  it('lists the fleet with states, speeds and counts; search and a state filter narrow the list and the map', async () => {
    serveApi(...fleet());
    open();
    const list = await screen.findByRole('complementary', { name: 'Trucks' });
    expect(await within(list).findByText('Showing 3 of 3 trucks')).toBeTruthy();
    expect(within(list).getByTestId('truck-7').textContent).toBe('Truck 07Moving, 56 km/h');
    expect(within(list).getByTestId('truck-8').textContent).toBe('Truck 08Stopped, 0 km/h');
    expect(within(list).getByTestId('truck-9').textContent).toContain('no position');
    const chips = within(list).getByRole('group', { name: 'Filter by state' });
    expect(within(chips).getByRole('button', { name: /^Moving/ }).textContent).toMatch(/1$/);
    expect(mapLabel()).toBe('Map with 2 trucks');

    fireEvent.change(within(list).getByRole('searchbox'), { target: { value: '08' } });
    expect(await within(list).findByText('Showing 1 of 3 trucks')).toBeTruthy();
    expect(within(list).queryByTestId('truck-7')).toBeNull();
    expect(mapLabel()).toBe('Map with 1 truck');
    fireEvent.change(within(list).getByRole('searchbox'), { target: { value: '' } });
    const moving = within(chips).getByRole('button', { name: /^Moving/ });
    fireEvent.click(moving);
    expect(moving.getAttribute('aria-pressed')).toBe('true');
    expect(await within(list).findByText('Showing 1 of 3 trucks')).toBeTruthy();
    expect(within(list).getByTestId('truck-7')).toBeTruthy();
    expect(mapLabel()).toBe('Map with 1 truck');
  });

  it("opens a chosen truck's card: its state, speed, position in the user's coordinate format and its journey", async () => {
    serveApi(...fleet());
    open('/map', { ...DISPATCHER, coordinateFormat: 'ddm' } as User);
    fireEvent.click(await screen.findByTestId('truck-7'));
    const card = await screen.findByRole('region', { name: 'Selected truck Truck 07' });
    expect(within(card).getByTestId('truck-state').textContent).toBe('Moving');
    expect(within(card).getByText('56 km/h')).toBeTruthy();
    expect(within(card).getByTestId('truck-position').textContent).toBe('3° 23.778′ S, 38° 33.366′ E');
    expect(await within(card).findByRole('link', { name: 'Open its journey' })).toHaveProperty('pathname', '/journeys/4');
    expect(within(card).getByRole('link', { name: 'Replay' }).getAttribute('href')).toBe('/replay?device=7');
    expect(screen.getByTestId('truck-7').getAttribute('aria-current')).toBe('true');
    fireEvent.click(within(card).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByTestId('truck-card')).toBeNull());
  });

  it('opens the card of the truck the address names (a link from the devices list or an alert)', async () => {
    serveApi(...fleet());
    open('/map?device=8');
    const card = await screen.findByRole('region', { name: 'Selected truck Truck 08' });
    expect(within(card).getByTestId('truck-state').textContent).toBe('Stopped');
    // Truck 08 is on no journey
    expect(within(card).queryByRole('link', { name: 'Open its journey' })).toBeNull();
  });

  it('says when there are no trucks yet, in English and in Swahili', async () => {
    serveApi(answer(devicesList, []), answer(positionsList, []), answer(active, []), answer(flagged, []));
    const view = open();
    expect(await screen.findByText('No trucks yet')).toBeTruthy();
    expect(screen.getByText('Trucks appear here once their trackers are registered as devices and report a position.')).toBeTruthy();
    expect(mapLabel()).toBe('Map with 0 trucks');
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('map.noTrucks'))).toBeTruthy();
    expect(screen.getByText(swahili('map.noTrucksHint'))).toBeTruthy();
  });

  it('a server that is down is said once, in English and in Swahili', async () => {
    serveApi(refuse(devicesList, 'UNAVAILABLE'), answer(positionsList, []), answer(active, []), answer(flagged, []));
    await saidOnceInEnglishAndSwahili(() => open(), 'errors.unavailable');
  });

  it('in Swahili, the list says its states and counts in Swahili', async () => {
    serveApi(...fleet());
    await i18n.changeLanguage('sw');
    open();
    const list = await screen.findByRole('complementary', { name: swahili('map.fleet') });
    expect(await within(list).findByText(swahili('map.showing', { shown: 3, count: 3 }))).toBeTruthy();
    expect(within(list).getByTestId('truck-7').textContent).toContain(swahili('truckState.moving'));
    await saidOnce(swahili('map.showing', { shown: 3, count: 3 }));
  });
});
