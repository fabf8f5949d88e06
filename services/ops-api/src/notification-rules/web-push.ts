import { Topics, type EventMessage, type WebNotificationMessage } from '@corridor/contracts';
import { cacheKeys, readUserDirectory, toApiEvent, unavailable, type Bus, type Cache } from '@corridor/platform';
import { eventSentence, messageLanguage } from './event-texts';

/** Sends an event a rule delivers through the web channel to one user's live feed. */
export type WebPush = (userId: number, ruleId: number, event: EventMessage, device: { name: string }) => Promise<void>;

/** How long the user directory and the server's language are reused between deliveries. */
const REREAD_MS = 2000;

/**
 * The web channel's live half (Traccar's NotificatorWeb): the event in Traccar's shape, with its
 * sentence in the user's language (the directory's `language`, else the server's attributes.language,
 * else English) in attributes.message, published on notifications.web.v1 for the gateway to send
 * to that user's sockets. A failed publish throws, so the consumer tries the event again.
 */
export function webPush(deps: { bus: Bus; cache: Cache; geofenceName?: (id: number) => string | undefined; now?: () => number }): WebPush {
  const now = deps.now ?? Date.now;
  let read: { at: number; languages: Map<number, string | undefined>; server: unknown } | undefined;
  async function languages() {
    if (read && now() - read.at < REREAD_MS) return read;
    const dir = await readUserDirectory(deps.cache);
    const server = await deps.cache.get(cacheKeys.serverAttributes()).then(
      (raw) => {
        const list = raw ? (JSON.parse(raw) as { language?: unknown }[]) : [];
        return list[0]?.language;
      },
      () => undefined,
    );
    read = { at: now(), languages: new Map(dir.map((u) => [u.id, u.language])), server };
    return read;
  }
  return async (userId, ruleId, event, device) => {
    const l = await languages();
    const language = messageLanguage(l.languages.get(userId), l.server);
    const fence = event.geofenceId ? deps.geofenceName?.(Number(event.geofenceId)) : undefined;
    const message = eventSentence(event, { device: device.name, geofence: fence }, language);
    const value: WebNotificationMessage = { userId, ruleId, event: toApiEvent(event, message) };
    await deps.bus.publish(Topics.webNotifications, [{ key: String(userId), value }]).catch((err: unknown) => {
      throw unavailable('event bus', err);
    });
  };
}
