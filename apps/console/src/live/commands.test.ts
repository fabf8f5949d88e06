import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { Event } from '@corridor/contracts/events';
import { applyCommandEvents, commandsKey, trackCommand, type TrackedCommand } from './commands';

const command = (id: number, requestedAt: string) => ({
  id,
  deviceId: 7,
  uniqueId: '357000000000007',
  type: 'engineStop',
  textChannel: false,
  attributes: {},
  requestedAt,
});
const event = (
  id: number,
  type: 'queuedCommandSent' | 'commandResult',
  eventTime: string,
  attributes: Record<string, unknown>,
  deviceId = 7,
): Event =>
  ({
    id,
    type,
    eventTime,
    deviceId,
    positionId: 0,
    geofenceId: 0,
    maintenanceId: 0,
    journeyId: null,
    latitude: null,
    longitude: null,
    attributes,
    address: null,
  }) as Event;
const states = (client: QueryClient) =>
  client.getQueryData<TrackedCommand[]>(commandsKey)!.map((c) => [c.command.id, c.state, c.answer ?? null]);

describe('tracked commands', () => {
  it("an answer moves on a command still queued (a live send's queuedCommandSent may come later, or not at all)", () => {
    const client = new QueryClient();
    trackCommand(client, command(1, '2026-03-01T10:00:00.000Z'));
    applyCommandEvents(client, [event(1, 'commandResult', '2026-03-01T10:00:03.000Z', { result: 'Cut off the fuel supply: Success!' })]);
    expect(states(client)).toEqual([[1, 'answered', 'Cut off the fuel supply: Success!']]);
    // the late queuedCommandSent does not move an answered command back
    applyCommandEvents(client, [event(2, 'queuedCommandSent', '2026-03-01T10:00:04.000Z', { commandId: '1' })]);
    expect(states(client)).toEqual([[1, 'answered', 'Cut off the fuel supply: Success!']]);
  });

  it("answers the device's oldest open command, and ignores another device's answers and answers from before the request", () => {
    const client = new QueryClient();
    trackCommand(client, command(1, '2026-03-01T10:00:00.000Z'));
    trackCommand(client, command(2, '2026-03-01T10:01:00.000Z'));
    applyCommandEvents(client, [
      event(1, 'commandResult', '2026-03-01T09:50:00.000Z', { result: 'old' }),
      event(2, 'commandResult', '2026-03-01T10:02:00.000Z', { result: 'other' }, 8),
    ]);
    expect(states(client)).toEqual([
      [2, 'queued', null],
      [1, 'queued', null],
    ]);
    applyCommandEvents(client, [event(3, 'queuedCommandSent', '2026-03-01T10:01:01.000Z', { commandId: '2' })]);
    applyCommandEvents(client, [event(4, 'commandResult', '2026-03-01T10:01:05.000Z', { result: 'first' })]);
    expect(states(client)).toEqual([
      [2, 'sent', null],
      [1, 'answered', 'first'],
    ]);
    applyCommandEvents(client, [event(5, 'commandResult', '2026-03-01T10:01:06.000Z', { result: 'second' })]);
    expect(states(client)).toEqual([
      [2, 'answered', 'second'],
      [1, 'answered', 'first'],
    ]);
  });

  it('an answer read twice (socket and server) answers one command, not the next one too', () => {
    const client = new QueryClient();
    trackCommand(client, command(1, '2026-03-01T10:00:00.000Z'));
    trackCommand(client, command(2, '2026-03-01T10:00:02.000Z'));
    const answer = event(9, 'commandResult', '2026-03-01T10:00:03.000Z', { result: 'OK' });
    applyCommandEvents(client, [answer]);
    applyCommandEvents(client, [answer]);
    expect(states(client)).toEqual([
      [2, 'queued', null],
      [1, 'answered', 'OK'],
    ]);
  });
});
