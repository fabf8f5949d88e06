import type { QueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import type { QueuedCommand } from '@corridor/contracts/commands-api';
import type { Event } from '@corridor/contracts/events';

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
}

/** A device's reply carries the device's clock (second resolution), the request the server's. */
const CLOCK_SKEW_MS = 5_000;

export const commandsKey = ['live.commands'] as const;
export const useTrackedCommands = () => useQuery<TrackedCommand[]>({ queryKey: commandsKey, queryFn: () => [], staleTime: Infinity, initialData: [] });

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
      if (e.type === 'queuedCommandSent') {
        // the event names the command as commands.v1 carries its id: decimal text
        const i = next.findIndex((c) => String(c.command.id) === String(e.attributes.commandId) && c.state === 'queued');
        if (i >= 0) next[i] = { ...next[i]!, state: 'sent', sentAt: e.eventTime };
      } else {
        let oldest = -1;
        next.forEach((c, i) => {
          // a command answered was sent, whether or not its queuedCommandSent came first (or at all)
          if (c.command.deviceId === e.deviceId && c.state !== 'answered' && Date.parse(e.eventTime) >= Date.parse(c.sentAt ?? c.command.requestedAt) - CLOCK_SKEW_MS) oldest = i;
        });
        if (oldest >= 0) next[oldest] = { ...next[oldest]!, state: 'answered', answeredAt: e.eventTime, answer: typeof e.attributes.result === 'string' ? e.attributes.result : '' };
      }
    }
    return next;
  });
}
