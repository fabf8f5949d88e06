import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, get, json, renderAt, serveApi, type Handler } from '../test/api-stub';
import RoutesScreen from './RoutesScreen';
import { ADMIN } from '../test/fixtures';

/**
 * Corridor routes against a stand-in for the API (the journey service's route tests prove what it
 * keeps): an edit sends the contract's RouteInput with the fields a person changed and everything
 * else of the route kept (line, stop areas, thresholds, countries); a route with a limit per
 * segment keeps them unless one is given; the contract refuses a width out of range before
 * sending; a route still followed by a journey is refused in words, in Swahili; a delete asks first.
 */
const T = '2026-11-01T00:00:00.000Z';
const route = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  code: null,
  name,
  description: null,
  line: [
    [39.66, -4.05],
    [37.0, -1.5],
    [34.1, 0.6],
  ],
  legs: null,
  widthM: 2000,
  speedLimitsKmh: [80],
  stopAreas: [{ kind: 'border', name: 'Malaba', center: [34.28, 0.63], radiusM: 800 }],
  expectedDurationMinutes: 1800,
  thresholds: { stopSpeedKmh: 4 },
  countries: ['KE', 'UG'],
  attributes: { colour: 'red' },
  lengthM: 1_100_000,
  segmentCount: 2,
  version: 3,
  companyId: null,
  createdAt: T,
  updatedAt: T,
  ...extra,
});
const northern = route(1, 'Northern Corridor');
const central = route(2, 'Central Corridor', {
  speedLimitsKmh: [60, 80],
  line: null,
  legs: [
    [
      [39.28, -6.82],
      [36.0, -6.0],
    ],
    [
      [36.0, -6.0],
      [33.0, -2.5],
    ],
  ],
});
const answer =
  (method: string, path: string, reply: (body: unknown) => Response): Handler =>
  ({ method: m, url, body }) =>
    m === method && url.pathname === path ? reply(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('routes', () => {
  it("edits a route's name, width and limit; its line, stop areas, thresholds and countries are kept", async () => {
    const served = serveApi(
      get('/api/routes', [northern, central]),
      answer('PUT', '/api/routes/1', (b) => json(200, { ...northern, ...(b as object) })),
    );
    renderAt(<RoutesScreen />, { path: '/admin/routes', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Northern Corridor' }));
    const form = await screen.findByRole('form', { name: 'Edit Northern Corridor' });
    expect(within(form).getByText('3 points')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Northern Corridor (A104)' } });
    fireEvent.change(within(form).getByLabelText(/^Half-width/), { target: { value: '1500' } });
    fireEvent.change(within(form).getByLabelText(/^Speed limit/), { target: { value: '70' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(served.sent.get('PUT /api/routes/1')).toHaveLength(1));
    expect(served.sent.get('PUT /api/routes/1')![0]).toEqual({
      code: null,
      name: 'Northern Corridor (A104)',
      description: null,
      line: northern.line,
      legs: null,
      widthM: 1500,
      speedLimitsKmh: [70],
      stopAreas: northern.stopAreas,
      expectedDurationMinutes: 1800,
      thresholds: { stopSpeedKmh: 4 },
      countries: ['KE', 'UG'],
      attributes: { colour: 'red' },
      companyId: null,
    });
  });

  it('a route of several legs keeps them, and its limits per segment unless one is given', async () => {
    const served = serveApi(
      get('/api/routes', [northern, central]),
      answer('PUT', '/api/routes/2', (b) => json(200, { ...central, ...(b as object) })),
    );
    renderAt(<RoutesScreen />, { path: '/admin/routes', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Central Corridor' }));
    const form = await screen.findByRole('form', { name: 'Edit Central Corridor' });
    expect(within(form).getByText(/Its line stays as stored/)).toBeTruthy();
    expect(within(form).getByText(/limit per segment/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(/^Expected duration/), { target: { value: '40' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(served.sent.get('PUT /api/routes/2')).toHaveLength(1));
    expect(served.sent.get('PUT /api/routes/2')![0]).toMatchObject({
      legs: central.legs,
      line: null,
      speedLimitsKmh: [60, 80],
      expectedDurationMinutes: 2400,
    });
  });

  it('a width out of range is refused before sending; a route a journey follows is refused in words, in Swahili', async () => {
    await i18n.changeLanguage('sw');
    const served = serveApi(
      get('/api/routes', [northern]),
      answer('PUT', '/api/routes/1', () => apiError(409, 'CONFLICT', 'an active journey follows this route')),
    );
    renderAt(<RoutesScreen />, { path: '/admin/routes', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Hariri Northern Corridor' }));
    const form = await screen.findByRole('form', { name: 'Hariri Northern Corridor' });
    const width = within(form).getByLabelText(/^Nusu upana/);
    fireEvent.change(width, { target: { value: '10' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Hifadhi' }));
    await waitFor(() => expect(width.getAttribute('aria-invalid')).toBe('true'));
    expect(served.sent.get('PUT /api/routes/1')).toBeUndefined();
    fireEvent.change(width, { target: { value: '1000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Hifadhi' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).not.toMatch(/active journey/);
  });

  it('asks before deleting; says when there are none, and when the server is down', async () => {
    const served = serveApi(get('/api/routes', [northern]));
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    const view = renderAt(<RoutesScreen />, { path: '/admin/routes', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Northern Corridor' }));
    expect(confirm).toHaveBeenCalledWith('Delete route Northern Corridor?');
    expect(served.asked.some((a) => a.startsWith('DELETE'))).toBe(false);
    view.unmount();
    serveApi(get('/api/routes', []));
    const empty = renderAt(<RoutesScreen />, { path: '/admin/routes', user: ADMIN });
    expect(await screen.findByText('No routes')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'down'));
    renderAt(<RoutesScreen />, { path: '/admin/routes', user: ADMIN });
    expect(await screen.findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });
});
