import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Position } from '@corridor/contracts/positions';
import type { ReportStop } from '@corridor/contracts/reports';
import { apiError, deviceFixture, get, renderAt, serveApi, text, type Handler } from '../../test/api-stub';
import { i18n } from '../../i18n/i18n';
import { swahili } from '../../test/contract-api';
import ReplayScreen from './ReplayScreen';

const FROM = '2026-03-01T10:00:00.000Z';
const TO = '2026-03-01T11:00:00.000Z';
const at = (s: number) => new Date(Date.parse(FROM) + s * 1000).toISOString();
const fix = (s: number, speed: number, attributes: Position['attributes'] = {}): Position => ({
  id: 1000 + s,
  deviceId: 7,
  protocol: 'gt06',
  deviceTime: at(s),
  fixTime: at(s),
  serverTime: at(s),
  valid: true,
  latitude: -3.4 + s / 10_000,
  longitude: 38.5 + s / 10_000,
  altitude: 0,
  speed,
  course: 90,
  accuracy: 0,
  attributes: { sat: 9, ignition: true, rssi: 4, ...attributes },
});
const FIXES = [fix(0, 30), fix(600, 0), fix(900, 0), fix(1200, 40, { alarm: 'sos' }), fix(1800, 45), fix(3600, 20)];
const EVENTS = [
  {
    id: 11,
    type: 'alarm',
    eventTime: at(1200),
    deviceId: 7,
    positionId: 2200,
    journeyId: null,
    geofenceId: 0,
    maintenanceId: 0,
    latitude: -3.28,
    longitude: 38.62,
    attributes: { alarm: 'sos' },
  },
  {
    id: 12,
    type: 'journeyFlagOpened',
    eventTime: at(1800),
    deviceId: 7,
    positionId: 0,
    journeyId: '4',
    geofenceId: 0,
    maintenanceId: 0,
    latitude: -3.22,
    longitude: 38.68,
    attributes: { flagType: 'offCorridor', flagId: 9 },
  },
  {
    id: 13,
    type: 'deviceMoving',
    eventTime: at(1000),
    deviceId: 7,
    positionId: 0,
    journeyId: null,
    geofenceId: 0,
    maintenanceId: 0,
    latitude: null,
    longitude: null,
    attributes: {},
  },
];
// typed by the contract: a field the contract adds fails typecheck here rather than the response's validation at run time
const STOPS: ReportStop[] = [
  {
    deviceId: 7,
    deviceName: 'Truck 07',
    positionId: 1600,
    latitude: -3.34,
    longitude: 38.56,
    startTime: at(600),
    endTime: at(900),
    duration: 300_000,
    engineHours: 0,
    spentFuel: 0,
    startOdometer: null,
    endOdometer: null,
    distance: 0,
    gapDistance: 0,
    averageSpeed: 0,
    maxSpeed: 0,
  },
];
const devices: Handler = get('/api/devices', [deviceFixture(7, 'Truck 07')]);
/** The server's reverse geocoder: a place per point asked (the stand-in names the point by its latitude). */
const places: Handler = ({ url }) =>
  url.pathname === '/api/server/geocode'
    ? text(200, `${Math.round(-Number(url.searchParams.get('latitude')) * 1000)} m S of the equator, KE`)
    : undefined;
const path = `/replay?device=7&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;

afterEach(() => vi.unstubAllGlobals());

describe('replay of a device', () => {
  it('plays the fixes of the period with its stops, alarms and flags as marks, jumps to one, and offers the period as files', async () => {
    const { asked } = serveApi(devices, places, get('/api/positions', FIXES), get('/api/events', EVENTS), get('/api/reports/stops', STOPS));
    renderAt(<ReplayScreen />, { path, route: '/replay' });
    const panel = await screen.findByTestId('replay-fix');
    await waitFor(() => expect(within(panel).getByTestId('fix-address').textContent).toBe('3400 m S of the equator, KE'));
    expect((screen.getByLabelText('Truck') as HTMLSelectElement).value).toBe('7'); // the truck of the address is the one chosen
    expect(within(panel).getByTestId('fix-time').textContent).toMatch(/10:00:00/);
    // the three requests of one replay, for the device and the period chosen
    expect(asked.filter((a) => /positions|events|stops/.test(a))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^GET \/api\/positions\?deviceId=7&from=.*&limit=50000$/),
        expect.stringMatching(/^GET \/api\/events\?deviceId=7/),
        expect.stringMatching(/^GET \/api\/reports\/stops\?deviceId=7/),
      ]),
    );
    const marks = screen.getByRole('heading', { name: /happened/ }).closest('section')!;
    expect(within(marks).getByRole('heading').textContent).toBe('3 things happened'); // motion events are told by the stops
    const items = within(marks)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(items[0]).toMatch(/Stopped for 5 min/);
    expect(items[1]).toMatch(/Alarm: SOS/);
    expect(items[2]).toMatch(/Off corridor/);
    fireEvent.click(within(marks).getByText(/Alarm: SOS/));
    await waitFor(() => expect(within(panel).getByTestId('fix-time').textContent).toMatch(/10:20:00/));
    expect(within(panel).getByText('SOS')).toBeTruthy();
    // the place of the fix under the cursor, in words, from the server's geocoder
    await waitFor(() => expect(within(panel).getByTestId('fix-address').textContent).toBe('3280 m S of the equator, KE'));
    expect(asked.filter((a) => a.startsWith('GET /api/server/geocode')).at(-1)).toBe(
      'GET /api/server/geocode?latitude=-3.28&longitude=38.62',
    );
    expect(screen.getByTestId('replay-slider').getAttribute('aria-valuetext')).toMatch(/10:20:00/);
    // scrubbing the slider: the fix at or before that moment
    fireEvent.change(screen.getByTestId('replay-slider'), { target: { value: String(Date.parse(at(1799))) } });
    await waitFor(() => expect(within(panel).getByTestId('fix-time').textContent).toMatch(/10:20:00/));
    fireEvent.change(screen.getByTestId('replay-slider'), { target: { value: String(Date.parse(at(1800))) } });
    await waitFor(() => expect(within(panel).getByTestId('fix-time').textContent).toMatch(/10:30:00/));
    const gpx = screen.getByTestId('export-gpx').getAttribute('href')!;
    expect(gpx).toBe(`/api/positions/gpx?deviceId=7&from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`);
    expect(screen.getByTestId('export-kml').getAttribute('href')).toMatch(/^\/api\/positions\/kml\?/);
    expect(screen.getByTestId('export-csv').getAttribute('href')).toMatch(/^\/api\/positions\/csv\?/);
  });

  it('says so when the truck did not report in the period', async () => {
    serveApi(devices, get('/api/positions', []), get('/api/events', []), get('/api/reports/stops', []));
    renderAt(<ReplayScreen />, { path, route: '/replay' });
    await screen.findByText('No positions in this period');
    expect(screen.queryByTestId('replay-play')).toBeNull();
  });

  it('in Swahili, a period without positions reads in Swahili', async () => {
    serveApi(devices, get('/api/positions', []), get('/api/events', []), get('/api/reports/stops', []));
    await i18n.changeLanguage('sw');
    renderAt(<ReplayScreen />, { path, route: '/replay' });
    expect(await screen.findByText(swahili('replay.noFixes'))).toBeTruthy();
    expect(screen.getByText(swahili('replay.noFixesHint'))).toBeTruthy();
  });

  it("shows the server's refusal (a period over the maximum) and its failure, with a retry that asks again", async () => {
    let positions: Response = apiError(
      400,
      'VALIDATION_FAILED',
      'The period from 2026-08-30T14:19:00.000Z … a report covers at most 31 days',
      { fields: ['from', 'to'], maxPeriodDays: 31, periodDays: 40 },
    );
    const { asked } = serveApi(
      devices,
      ({ url }) => (url.pathname === '/api/positions' ? positions.clone() : undefined),
      get('/api/events', []),
      get('/api/reports/stops', []),
    );
    renderAt(<ReplayScreen />, { path, route: '/replay' });
    // the server's refusal in words (api/messages.ts), not its English with ISO times
    await screen.findByText('A report covers at most 31 days, and this period spans 40. Choose a shorter period.');
    positions = apiError(503, 'UNAVAILABLE', 'The analytics store does not answer');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('The server is busy or a part of it is down. Try again in a moment.');
    expect(asked.filter((a) => a.startsWith('GET /api/positions')).length).toBe(2);
    positions = new Response(JSON.stringify(FIXES), { status: 200, headers: { 'content-type': 'application/json' } });
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByTestId('replay-fix');
  });

  it('plays without events when they cannot be loaded, and says what is missing', async () => {
    serveApi(
      devices,
      get('/api/positions', FIXES),
      () => undefined,
      ({ url }) => (url.pathname === '/api/events' ? apiError(500, 'INTERNAL') : undefined),
      get('/api/reports/stops', STOPS),
    );
    renderAt(<ReplayScreen />, { path, route: '/replay' });
    await screen.findByText(/The events or stops of this period could not be loaded/);
    expect(screen.getByTestId('replay-fix')).toBeTruthy();
  });

  it('asks for a truck before showing anything, with the problem under the field it belongs to', async () => {
    const { asked } = serveApi(devices);
    renderAt(<ReplayScreen />, { path: '/replay', route: '/replay' });
    expect(await screen.findByText('Choose a truck and a period, then show its replay.')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Show replay' }));
    const truck = screen.getByLabelText('Truck');
    await waitFor(() => expect(truck.getAttribute('aria-invalid')).toBe('true'));
    const problem = document.getElementById(truck.getAttribute('aria-describedby')!.split(' ').at(-1)!);
    expect(problem?.textContent).toBe('Fill this in.');
    expect(asked.some((a) => a.startsWith('GET /api/positions'))).toBe(false);
  });
});
