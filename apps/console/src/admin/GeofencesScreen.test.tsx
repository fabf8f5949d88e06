import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, get, json, renderAt, serveApi, type Handler } from '../test/api-stub';
import GeofencesScreen from './GeofencesScreen';
import { ADMIN } from '../test/fixtures';

/**
 * The geofences screen against a stand-in for the API (the geofence service's tests prove what it
 * keeps; the browser test drags a corner on the real map): an edit sends the contract's
 * GeofenceInput with the fence's shape as corners (a circle as its centre and radius), its kind,
 * country, calendar, attributes and owner kept; a shape with a hole is kept as stored; a refusal is
 * worded under its field in Swahili; a delete asks first; an empty list and a server down say so.
 */
const fence = (id: number, name: string, area: string, extra: Record<string, unknown> = {}) => ({
  id,
  name,
  area,
  calendarId: 0,
  attributes: {},
  kind: 'weighbridge',
  country: 'KE',
  companyId: null,
  ...extra,
});
const yard = fence(4, 'Mariakani weighbridge', 'CIRCLE (-3.86 39.47, 400)', { attributes: { minDwellSeconds: 60 }, companyId: 101 });
const holed = fence(
  5,
  'Port with a hole',
  'POLYGON ((-4.0 39.6, -4.0 39.7, -4.1 39.7, -4.0 39.6), (-4.03 39.63, -4.03 39.65, -4.05 39.65, -4.03 39.63))',
  { kind: 'port' },
);
const calendars = get('/api/calendars', [{ id: 3, name: 'Weekdays', data: 'QkVHSU4=', companyId: null, attributes: {} }]);
const answer =
  (method: string, path: string, reply: (body: unknown) => Response): Handler =>
  ({ method: m, url, body }) =>
    m === method && url.pathname === path ? reply(body) : undefined;

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await i18n.changeLanguage('en');
});

describe('geofences', () => {
  it('edits a circle: its centre and radius sent as GeoJSON, its calendar chosen, its attributes and owner kept', async () => {
    const served = serveApi(
      get('/api/geofences', [yard, holed]),
      calendars,
      answer('PUT', '/api/geofences/4', (b) => json(200, { ...yard, name: (b as { name: string }).name })),
    );
    renderAt(<GeofencesScreen />, { path: '/admin/geofences', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Mariakani weighbridge' }));
    const form = await screen.findByRole('form', { name: 'Edit Mariakani weighbridge' });
    expect(within(form).getByText('1 point')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Radius (m)'), { target: { value: '650' } });
    fireEvent.change(within(form).getByLabelText(/^Name/), { target: { value: 'Mariakani weighbridge north' } });
    await within(form).findByRole('option', { name: 'Weekdays' });
    fireEvent.change(within(form).getByLabelText(/^Active/), { target: { value: '3' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(served.sent.get('PUT /api/geofences/4')).toHaveLength(1));
    expect(served.sent.get('PUT /api/geofences/4')![0]).toEqual({
      name: 'Mariakani weighbridge north',
      description: null,
      kind: 'weighbridge',
      country: 'KE',
      calendarId: 3,
      attributes: { minDwellSeconds: 60 },
      companyId: 101,
      geometry: { type: 'Point', coordinates: [39.47, -3.86] },
      radius: 650,
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit Mariakani weighbridge' })).toBeNull());
  });

  it('a shape with a hole is kept as stored while its name changes', async () => {
    const served = serveApi(
      get('/api/geofences', [yard, holed]),
      calendars,
      answer('PUT', '/api/geofences/5', () => json(200, { ...holed, country: null })),
    );
    renderAt(<GeofencesScreen />, { path: '/admin/geofences', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Port with a hole' }));
    const form = await screen.findByRole('form', { name: 'Edit Port with a hole' });
    expect(within(form).getByText(/Its shape stays as stored/)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(/^Country/), { target: { value: '' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(served.sent.get('PUT /api/geofences/5')).toHaveLength(1));
    expect(served.sent.get('PUT /api/geofences/5')![0]).toMatchObject({ area: holed.area, country: null, kind: 'port' });
    expect(served.sent.get('PUT /api/geofences/5')![0]).not.toHaveProperty('geometry');
  });

  it("a refused shape is said in the form, in Swahili, never the server's words", async () => {
    await i18n.changeLanguage('sw');
    serveApi(
      get('/api/geofences', [yard]),
      calendars,
      answer('PUT', '/api/geofences/4', () =>
        apiError(400, 'VALIDATION_FAILED', 'radius: Too big', [
          { in: 'body', path: 'radius', code: 'too_big', maximum: 50000, origin: 'number', message: 'Too big' },
        ]),
      ),
    );
    renderAt(<GeofencesScreen />, { path: '/admin/geofences', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Hariri Mariakani weighbridge' }));
    const form = await screen.findByRole('form', { name: 'Hariri Mariakani weighbridge' });
    fireEvent.click(within(form).getByRole('button', { name: 'Hifadhi' }));
    expect(await within(form).findByRole('alert')).toBeTruthy();
    expect(form.textContent).not.toMatch(/Too big|radius/);
  });

  it('asks before deleting; says when there are none, and when the server is down', async () => {
    const served = serveApi(get('/api/geofences', [yard]), calendars);
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    const view = renderAt(<GeofencesScreen />, { path: '/admin/geofences', user: ADMIN });
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Mariakani weighbridge' }));
    expect(confirm).toHaveBeenCalledWith('Delete geofence Mariakani weighbridge? Alerts for entering and leaving it stop.');
    expect(served.asked.some((a) => a.startsWith('DELETE'))).toBe(false);
    view.unmount();
    serveApi(get('/api/geofences', []), calendars);
    const empty = renderAt(<GeofencesScreen />, { path: '/admin/geofences', user: ADMIN });
    expect(await screen.findByText('No geofences')).toBeTruthy();
    empty.unmount();
    serveApi(() => apiError(503, 'UNAVAILABLE', 'down'));
    renderAt(<GeofencesScreen />, { path: '/admin/geofences', user: ADMIN });
    expect(await screen.findByText('The server is busy or a part of it is down. Try again in a moment.')).toBeTruthy();
  });
});
