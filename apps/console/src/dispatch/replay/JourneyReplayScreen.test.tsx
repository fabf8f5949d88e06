import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { devicesEndpoints } from '@corridor/contracts/devices';
import { eventsEndpoints } from '@corridor/contracts/events-api';
import { positionsEndpoints } from '@corridor/contracts/positions-api';
import { reportsEndpoints } from '@corridor/contracts/reports';
import { endpoint } from '../../api/endpoint';
import { i18n } from '../../i18n/i18n';
import { DISPATCHER, deviceFixture, renderAt, serveApi } from '../../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../../test/contract-api';
import { journey, journeyDetail, journeyFlag, position } from '../../test/fixtures';
import { journeyEndpoints } from '../journeys';
import JourneyReplayScreen from './JourneyReplayScreen';

/**
 * A journey's replay against contract-shaped answers (the map falls back to its label: no WebGL
 * here): the journey's truck and period asked for, its flags among the marks, ?flag= starting at
 * one; no positions; the journey or its track refused, said once.
 */
const FROM = '2026-11-20T08:00:00.000Z';
const TO = '2026-11-20T09:00:00.000Z';
const at = (s: number) => new Date(Date.parse(FROM) + s * 1000).toISOString();
const fix = (s: number, speed: number) => position(7, at(s), speed, { latitude: -3.4 + s / 10_000, longitude: 38.5 + s / 10_000 });
const flag = journeyFlag(9, { type: 'offCorridor', openedAt: at(1800), clearedAt: at(2400), distanceM: 2600 });
const done = journeyDetail(journey(4, { state: 'completed', actualDeparture: FROM, actualArrival: TO }), { flags: [flag] });
const devices = answer(endpoint(devicesEndpoints, 'devices.list'), [deviceFixture(7, 'Truck 07')]);
const positions = endpoint(positionsEndpoints, 'positions.list');
const quiet = [answer(endpoint(eventsEndpoints, 'events.list'), []), answer(endpoint(reportsEndpoints, 'reports.stops'), [])];
const open = (path = '/journeys/4/replay') => renderAt(<JourneyReplayScreen />, { path, route: '/journeys/:id/replay', user: DISPATCHER });

describe('replay of a journey', () => {
  it("replays the journey's truck over its period with its flags among the marks, from the flag asked for", async () => {
    const served = serveApi(
      devices,
      answer(journeyEndpoints.get, done),
      answer(positions, [fix(0, 30), fix(1800, 20), fix(3600, 10)]),
      ...quiet,
    );
    open('/journeys/4/replay?flag=9');
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Replay of journey 4 · Truck 07'));
    const panel = await screen.findByTestId('replay-fix');
    // ?flag=9 starts the player where the flag opened
    expect(within(panel).getByTestId('fix-time').textContent).toMatch(/:30:00/);
    const marks = screen.getByRole('heading', { name: /happened/ }).closest('section')!;
    expect(within(marks).getByText(/Off corridor/)).toBeTruthy();
    expect(served.asked.find((a) => a.startsWith('GET /api/positions?'))).toBe(
      `GET /api/positions?deviceId=7&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}&limit=50000`,
    );
    expect(screen.getByRole('link', { name: '← Journey 4' }).getAttribute('href')).toBe('/journeys/4');
  });

  it('says so when the truck did not report during the journey, in English and in Swahili', async () => {
    serveApi(devices, answer(journeyEndpoints.get, done), answer(positions, []), ...quiet);
    const view = open();
    expect(await screen.findByText('No positions in this period')).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('replay.noFixes'))).toBeTruthy();
  });

  it('a journey that is not there, or a track the server cannot give, is said once', async () => {
    serveApi(devices, refuse(journeyEndpoints.get, 'NOT_FOUND'));
    const view = open();
    await saidOnce('This was not found. It may have been deleted, or it is not yours to see.');
    view.unmount();
    serveApi(devices, answer(journeyEndpoints.get, done), refuse(positions, 'UNAVAILABLE'), ...quiet);
    open();
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
  });
});
