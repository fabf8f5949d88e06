import type { QueryClient } from '@tanstack/react-query';
import { useQuery } from '@tanstack/react-query';
import type { Event } from '@corridor/contracts/events';

/** An event a notification rule sent to this user's web channel, as it popped up. */
export interface Alert {
  event: Event;
  /** ms, when the console received it */
  receivedAt: number;
  /** dismissed by the person (it stays in the list of recent alerts) */
  dismissed: boolean;
}

const alertsKey = ['live.alerts'] as const;
const MAX_ALERTS = 50;

/** Recent alerts, newest first, kept in the query cache like every other live frame. */
export const useAlerts = () => useQuery<Alert[]>({ queryKey: alertsKey, queryFn: () => [], staleTime: Infinity, initialData: [] });

/**
 * The socket's `events` frames: what the user's notification rules send to the web channel (with
 * the server's sentence in attributes.message). The same event twice (a reconnect) pops up once.
 */
export function applyAlerts(client: QueryClient, events: readonly Event[], now = Date.now()): Alert[] {
  const known = new Set((client.getQueryData<Alert[]>(alertsKey) ?? []).map((a) => a.event.id));
  const fresh = events.filter((e) => !known.has(e.id)).map((event) => ({ event, receivedAt: now, dismissed: false }));
  if (fresh.length) client.setQueryData<Alert[]>(alertsKey, (cur) => [...fresh.reverse(), ...(cur ?? [])].slice(0, MAX_ALERTS));
  return fresh;
}

export function dismissAlert(client: QueryClient, id: number | 'all'): void {
  client.setQueryData<Alert[]>(alertsKey, (cur) => cur?.map((a) => (id === 'all' || a.event.id === id ? { ...a, dismissed: true } : a)));
}
