import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@corridor/contracts/users';
import { applyCommandEvents, useCommandsFromServer } from '../../live/commands';
import { apiError, deviceFixture, DISPATCHER, get, json, renderAt, serveApi, type Handler } from '../../test/api-stub';
import { TruckCard } from '../TruckCard';
import type { FleetRow } from '../truck-features';

/**
 * Sending a command from the truck card, against a stand-in for the API with its answers varied
 * (supported types, none, a refusal naming the field, an outage); the live feed's events are
 * applied to the cache as the socket would.
 */
const row = { device: deviceFixture(7, 'Truck 07'), position: undefined, state: 'unknown', quiet: false } as unknown as FleetRow;
const types = (list: string[]): Handler =>
  get(
    '/api/commands/types',
    list.map((type) => ({ type })),
  );
const noSaved = get('/api/commands/send', []);
const queued = (body: { deviceId: number; type?: string; attributes?: object }) =>
  json(202, {
    id: 1764324000000001,
    deviceId: body.deviceId,
    uniqueId: '357000000000007',
    type: body.type,
    textChannel: false,
    attributes: body.attributes ?? {},
    requestedAt: '2026-03-01T10:00:00.000Z',
  });
const sendWith =
  (answer: (body: { deviceId: number; type?: string; attributes?: object }) => Response): Handler =>
  ({ method, url, body }) =>
    method === 'POST' && url.pathname === '/api/commands/send' ? answer(body as { deviceId: number }) : undefined;
const event = (id: number, type: 'queuedCommandSent' | 'commandResult', eventTime: string, attributes: Record<string, unknown>) => ({
  id,
  type,
  eventTime,
  deviceId: 7,
  positionId: 0,
  geofenceId: 0,
  maintenanceId: 0,
  journeyId: null,
  latitude: null,
  longitude: null,
  attributes,
});

/** What the live feed provider mounts: the server's events about the commands sent. */
function CommandsFromServer() {
  useCommandsFromServer();
  return null;
}

function open(user?: User) {
  const view = renderAt(<TruckCard row={row} follow={false} onFollow={() => undefined} onClose={() => undefined} />, {
    path: '/map',
    user,
  });
  return view;
}

afterEach(() => vi.unstubAllGlobals());

describe('commands to a truck', () => {
  it('sends engine stop after a warning, then shows it queued, sent and answered as the live feed tells', async () => {
    const { sent } = serveApi(types(['engineStop', 'engineResume', 'custom']), noSaved, sendWith(queued));
    const { client } = open();
    fireEvent.click(screen.getByRole('button', { name: 'Send a command' }));
    const dialog = await screen.findByRole('dialog', { name: 'Command to Truck 07' });
    fireEvent.change(await within(dialog).findByLabelText('Command'), { target: { value: 'engineStop' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    const warning = await within(dialog).findByTestId('command-confirm');
    expect(warning.textContent).toMatch(/Send "Engine stop" to Truck 07\? The engine will not start again/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send Engine stop' }));
    const state = await within(dialog).findByTestId('command-state');
    expect(sent.get('POST /api/commands/send')).toEqual([{ deviceId: 7, type: 'engineStop', attributes: {} }]);
    expect(state.dataset.state).toBe('queued');
    act(() =>
      applyCommandEvents(client, [
        event(1, 'queuedCommandSent', '2026-03-01T10:00:05.000Z', { commandId: '1764324000000001', type: 'engineStop' }),
      ]),
    );
    await waitFor(() => expect(state.dataset.state).toBe('sent'));
    act(() => applyCommandEvents(client, [event(2, 'commandResult', '2026-03-01T10:00:09.000Z', { result: 'Relay,1 OK' })]));
    await waitFor(() => expect(state.dataset.state).toBe('answered'));
    expect(within(state).getByText('The tracker answered: Relay,1 OK')).toBeTruthy();
    // the card keeps the command's progress after the dialog closes
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.getAllByTestId('command-state')[0]!.dataset.state).toBe('answered');
  });

  it("moves the command on from the server's stored events when the socket says nothing (its frame came before the send's answer, or was lost)", async () => {
    const stored = [
      {
        ...event(31, 'queuedCommandSent', '2026-03-01T10:00:01.000Z', { commandId: '1764324000000001', type: 'engineStop' }),
        address: null,
      },
      { ...event(32, 'commandResult', '2026-03-01T10:00:04.000Z', { result: 'Relay,1 OK' }), address: null },
    ];
    const { asked } = serveApi(types(['engineStop']), noSaved, sendWith(queued), get('/api/events', stored));
    renderAt(
      <>
        <CommandsFromServer />
        <TruckCard row={row} follow={false} onFollow={() => undefined} onClose={() => undefined} />
      </>,
      { path: '/map' },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send a command' }));
    const dialog = await screen.findByRole('dialog', { name: 'Command to Truck 07' });
    fireEvent.change(await within(dialog).findByLabelText('Command'), { target: { value: 'engineStop' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Send Engine stop' }));
    const state = await within(dialog).findByTestId('command-state');
    await waitFor(() => expect(state.dataset.state).toBe('answered'));
    expect(within(state).getByText('The tracker answered: Relay,1 OK')).toBeTruthy();
    // asked for the device's command events from just before the request
    const q = new URLSearchParams(asked.find((a) => a.startsWith('GET /api/events?'))!.split('?')[1]);
    expect([q.get('deviceId'), q.getAll('type'), q.get('from')]).toEqual([
      '7',
      ['queuedCommandSent', 'commandResult'],
      '2026-03-01T09:59:55.000Z',
    ]);
  });

  it('asks for the text of a custom command, under its field, before anything is sent', async () => {
    const { sent } = serveApi(types(['custom']), noSaved, sendWith(queued));
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Send a command' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(await within(dialog).findByLabelText('Command'), { target: { value: 'custom' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    const data = await within(dialog).findByLabelText('Text to send');
    await waitFor(() => expect(data.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(data.getAttribute('aria-describedby')!.split(' ').at(-1)!)?.textContent).toBe('Write the text to send.');
    fireEvent.change(data, { target: { value: 'WHERE#' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Send Custom text' }));
    await within(dialog).findByTestId('command-state');
    expect(sent.get('POST /api/commands/send')).toEqual([{ deviceId: 7, type: 'custom', attributes: { data: 'WHERE#' } }]);
  });

  it("puts the server's refusal under the field it names, and keeps an outage on the confirmation with its reason", async () => {
    let answer: Response = apiError(400, 'VALIDATION_FAILED', 'body.type: gt06 devices do not support engineResume', [
      {
        in: 'body',
        path: 'type',
        message: 'gt06 devices do not support engineResume',
        reason: 'commandUnsupported',
        protocol: 'gt06',
        type: 'engineResume',
      },
    ]);
    serveApi(
      types(['engineStop', 'engineResume']),
      noSaved,
      sendWith(() => answer.clone()),
    );
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Send a command' }));
    const dialog = await screen.findByRole('dialog');
    const command = await within(dialog).findByLabelText('Command');
    fireEvent.change(command, { target: { value: 'engineResume' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Send Engine resume' }));
    const back = await within(dialog).findByLabelText('Command');
    await waitFor(() => expect(back.getAttribute('aria-invalid')).toBe('true'));
    // worded by the console from the server's reason code, not the server's English
    expect(within(dialog).getByText('This truck\'s tracker (gt06) does not take the command "Engine resume".')).toBeTruthy();
    answer = apiError(503, 'UNAVAILABLE', 'The command bus is not available; try again shortly');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Next' }));
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Send Engine resume' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'The server is busy or a part of it is down. Try again in a moment.',
    );
    expect(within(dialog).getByTestId('command-confirm')).toBeTruthy();
  });

  it('says when the tracker takes no commands', async () => {
    serveApi(types([]), noSaved);
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Send a command' }));
    expect(await screen.findByText("This truck's tracker takes no commands from Corridor.")).toBeTruthy();
  });

  it('is not offered to a role that may not send commands', async () => {
    serveApi(types(['engineStop']), noSaved);
    open({ ...DISPATCHER, roles: ['company_user'] } as User);
    expect(screen.getByRole('link', { name: 'Replay' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send a command' })).toBeNull();
  });
});
