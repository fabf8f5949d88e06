import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Event } from '@corridor/contracts/events';
import { deviceFixture, get, renderAt, serveApi, text, type Handler } from '../../test/api-stub';
import { AlertCenter, AlertSoundSwitch } from './AlertCenter';
import { applyAlerts } from './alerts';

/**
 * Alerts as the socket's `events` frames bring them (what the user's rules send to the web
 * channel), applied to the cache as the live feed does; the sound through a stand-in Web Audio
 * that counts the tones it is asked to play.
 */
const sos = (id: number, over: Partial<Event> = {}): Event => ({
  id,
  type: 'alarm',
  eventTime: '2026-03-01T10:20:00.000Z',
  deviceId: 7,
  positionId: 5,
  geofenceId: 0,
  maintenanceId: 0,
  journeyId: null,
  latitude: -3.3961,
  longitude: 38.5561,
  attributes: { alarm: 'sos', message: 'Alarm on Truck 07: SOS' },
  ...over,
});
const places: Handler = ({ url }) => (url.pathname === '/api/server/geocode' ? text(200, '2 km SE of Voi, KE') : undefined);
let tones = 0;

beforeEach(() => {
  tones = 0;
  localStorage.clear();
  vi.stubGlobal(
    'AudioContext',
    class {
      state = 'running';
      currentTime = 0;
      destination = {};
      createOscillator() {
        return { type: '', frequency: { value: 0 }, connect: (n: unknown) => n, start: () => void tones++, stop: () => undefined };
      }
      createGain() {
        return { gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined }, connect: (n: unknown) => n };
      }
    },
  );
});
afterEach(() => vi.unstubAllGlobals());

function show() {
  serveApi(places, get('/api/devices', [deviceFixture(7, 'Truck 07')]));
  return renderAt(
    <>
      <AlertSoundSwitch />
      <AlertCenter />
    </>,
    { path: '/map' },
  );
}

describe('alerts', () => {
  it('pops an SOS up with its truck, its place in words, links to the map and the replay, and a sound', async () => {
    const { client } = show();
    act(() => void applyAlerts(client, [sos(1)]));
    const alert = await screen.findByTestId('alert');
    expect(within(alert).getByText('SOS')).toBeTruthy();
    await waitFor(() => expect(within(alert).getByText(/Truck 07/)).toBeTruthy());
    await waitFor(() => expect(within(alert).getByTestId('alert-address').textContent).toBe('2 km SE of Voi, KE'));
    expect(within(alert).getByRole('link', { name: 'Show on the map' }).getAttribute('href')).toBe('/map?device=7&at=-3.3961%2C38.5561');
    expect(within(alert).getByRole('link', { name: 'Replay around it' }).getAttribute('href')).toMatch(
      /^\/replay\?device=7&from=2026-03-01T09%3A50%3A00.000Z&to=2026-03-01T10%3A25%3A00.000Z$/,
    );
    expect(tones).toBe(2);
    // the same event again (a reconnect) does not pop up or ring twice
    act(() => void applyAlerts(client, [sos(1)]));
    expect(screen.getAllByTestId('alert')).toHaveLength(1);
    expect(tones).toBe(2);
    fireEvent.click(within(alert).getByRole('button', { name: 'Dismiss the alert: SOS' }));
    await waitFor(() => expect(screen.queryByTestId('alert')).toBeNull());
  });

  it('stays silent once muted, and the choice is remembered', async () => {
    const { client, unmount } = show();
    const bell = screen.getByTestId('alert-sound');
    expect(bell.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(bell);
    expect(bell.getAttribute('aria-pressed')).toBe('true');
    act(() => void applyAlerts(client, [sos(2, { attributes: { alarm: 'powerCut' } })]));
    expect(within(await screen.findByTestId('alert')).getByText('Power cut')).toBeTruthy();
    expect(tones).toBe(0);
    unmount();
    show();
    expect(screen.getByTestId('alert-sound').getAttribute('aria-pressed')).toBe('true');
  });

  it('shows three at most, newest first, with the count of the others and a way to dismiss them all', async () => {
    const { client } = show();
    act(
      () =>
        void applyAlerts(
          client,
          [1, 2, 3, 4, 5].map((i) =>
            sos(10 + i, { type: i === 5 ? 'geofenceEnter' : 'alarm', attributes: { alarm: 'sos' }, latitude: null, longitude: null }),
          ),
        ),
    );
    const shown = await screen.findAllByTestId('alert');
    expect(shown).toHaveLength(3);
    expect(within(shown[0]!).getByText('Entered geofence')).toBeTruthy();
    expect(within(shown[0]!).getByTestId('alert-address').textContent).toBe('Place not known');
    expect(screen.getByText(/2 more alerts/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss all' }));
    await waitFor(() => expect(screen.queryByTestId('alert')).toBeNull());
  });
});
