import type { QueryClient } from '@tanstack/react-query';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { QueuedCommand } from '@corridor/contracts/commands-api';
import { eventsEndpoints } from '@corridor/contracts/events-api';
import type { Event, EventType } from '@corridor/contracts/events';
import { call } from '../api/client';
import { endpoint } from '../api/endpoint';
import { keyOf } from '../api/hooks';

/**
 * A command this console sent, and how far it got: queued (the API took it), sent (the device's
 * connection got it: a queuedCommandSent event names it), answered (the device's next commandResult).
 */
export interface TrackedCommand {
  command: QueuedCommand;
  state: 'queued' | 'sent' | 'answered';
  sentAt?: string;
  answeredAt?: string;
  /** The device's reply (Traccar's `result`). */
  answer?: string;
  /** The commandResult event that answered it (the socket and GET /api/events give the same id). */
  answeredBy?: number;
}

/** A device's reply carries the device's clock (second resolution), the request the server's. */
const CLOCK_SKEW_MS = 5_000;

export const commandsKey = ['live.commands'] as const;
export const useTrackedCommands = () =>
  useQuery<TrackedCommand[]>({ queryKey: commandsKey, queryFn: () => [], staleTime: Infinity, initialData: [] });

export function trackCommand(client: QueryClient, command: QueuedCommand): void {
  client.setQueryData<TrackedCommand[]>(commandsKey, (cur) => [{ command, state: 'queued' as const }, ...(cur ?? [])].slice(0, 50));
}

/**
 * Moves the tracked commands on from the live events: a queuedCommandSent names its command; a
 * commandResult answers the device's oldest command not answered yet (a device's reply does not say
 * which command it answers; a reply may arrive before the queuedCommandSent event, which travels
 * by another path, or without it).
 */
export function applyCommandEvents(client: QueryClient, events: readonly Event[]): void {
  const relevant = events.filter((e) => e.type === 'queuedCommandSent' || e.type === 'commandResult');
  if (!relevant.length || !client.getQueryData<TrackedCommand[]>(commandsKey)?.length) return;
  client.setQueryData<TrackedCommand[]>(commandsKey, (cur) => {
    const next = [...(cur ?? [])];
    for (const e of relevant) {
      // the same answer read again (from the socket and the server, or the server twice) answers nothing more
      if (e.type === 'commandResult' && next.some((c) => c.answeredBy === e.id)) continue;
      if (e.type === 'queuedCommandSent') {
        // the event names the command as commands.v1 carries its id: decimal text
        const i = next.findIndex((c) => String(c.command.id) === String(e.attributes.commandId) && c.state === 'queued');
        if (i >= 0) next[i] = { ...next[i]!, state: 'sent', sentAt: e.eventTime };
      } else {
        let oldest = -1;
        next.forEach((c, i) => {
          // a command answered was sent, whether or not its queuedCommandSent came first (or at all)
          if (
            c.command.deviceId === e.deviceId &&
            c.state !== 'answered' &&
            Date.parse(e.eventTime) >= Date.parse(c.sentAt ?? c.command.requestedAt) - CLOCK_SKEW_MS
          )
            oldest = i;
        });
        if (oldest >= 0)
          next[oldest] = {
            ...next[oldest]!,
            state: 'answered',
            answeredAt: e.eventTime,
            answeredBy: e.id,
            answer: typeof e.attributes.result === 'string' ? e.attributes.result : '',
          };
      }
    }
    return next;
  });
}

const eventsList = endpoint(eventsEndpoints, 'events.list');
/** How often the server is asked while a command is on its way, and for how long after it was requested. */
const SERVER_POLL_MS = 5_000;
const SERVER_WATCH_MS = 10 * 60_000;

/**
 * The server's truth about the commands this console sent: while a device has a command not
 * answered yet, its queuedCommandSent and commandResult events are read from GET /api/events (every
 * 5 s, for 10 minutes after the request) and applied as the socket's are. The socket is quicker,
 * but its frame can come before the send's answer (the command is not tracked yet) or be lost to a
 * reconnect; the stored events cannot.
 */
export function useCommandsFromServer(): void {
  const client = useQueryClient();
  const { data } = useTrackedCommands();
  // per device, the request time of its oldest command not answered yet
  const since = new Map<number, string>();
  for (const c of data) {
    if (c.state === 'answered') continue;
    const cur = since.get(c.command.deviceId);
    if (!cur || c.command.requestedAt < cur) since.set(c.command.deviceId, c.command.requestedAt);
  }
  useQueries({
    queries: [...since].map(([deviceId, requestedAt]) => {
      const from = Date.parse(requestedAt) - CLOCK_SKEW_MS;
      const query = {
        deviceId: [deviceId],
        from: new Date(from).toISOString(),
        to: new Date(from + SERVER_WATCH_MS).toISOString(),
        type: ['queuedCommandSent', 'commandResult'] satisfies EventType[],
        limit: 100,
      };
      return {
        queryKey: keyOf(eventsList, { query }),
        queryFn: async ({ signal }: { signal: AbortSignal }) => {
          const events = await call(eventsList, { query, signal });
          applyCommandEvents(client, events);
          return events;
        },
        refetchInterval: () => (Date.now() < from + SERVER_WATCH_MS ? SERVER_POLL_MS : false),
      };
    }),
  });
}
