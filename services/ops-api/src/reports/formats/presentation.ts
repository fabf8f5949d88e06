import { preferencesOf, type DistanceUnit, type ReportLanguage, type SpeedUnit } from '@corridor/contracts';
import { cacheKeys, readUserDirectory, type Cache } from '@corridor/platform';

/**
 * How a file of a report shows its values to the person it is for: the language of its headers and
 * words, the units of distances and speeds, the time zone of its times. JSON answers stay in the
 * API's units (Traccar's: metres, knots, ISO times in UTC); files are for people.
 */
export interface Presentation {
  language: ReportLanguage;
  speedUnit: SpeedUnit;
  distanceUnit: DistanceUnit;
  /** IANA time zone of the times (UTC when the user and the server name none). */
  timeZone: string;
}

export const DEFAULT_PRESENTATION: Presentation = { language: 'en', speedUnit: 'kmh', distanceUnit: 'km', timeZone: 'UTC' };

/** A user's preferences (packages/contracts preferences.ts) as a file shows them. */
export function presentationOf(
  user: { attributes?: Record<string, unknown> } | undefined,
  server?: { attributes?: Record<string, unknown> },
): Presentation {
  const p = preferencesOf(user, server);
  return { language: p.language ?? 'en', speedUnit: p.speedUnit, distanceUnit: p.distanceUnit, timeZone: p.timezone ?? 'UTC' };
}

/** How long the directory and the server's attributes are reused between files. */
const REREAD_MS = 2000;

/**
 * The presentation for a user (or, without one, the server's: a scheduled report mailed to
 * addresses): their preferences from the user directory the gateway publishes, over the server's
 * attributes. Unreadable parts fall back to the defaults; a file is never refused for them.
 */
export function presentations(cache: Cache, now: () => number = Date.now): (userId?: number) => Promise<Presentation> {
  let read: { at: number; users: Map<number, Record<string, unknown>>; server: Record<string, unknown> } | undefined;
  async function load() {
    if (read && now() - read.at < REREAD_MS) return read;
    const users = await readUserDirectory(cache).then(
      (dir) => new Map(dir.map((u) => [u.id, { ...(u.preferences ?? {}), ...(u.language ? { language: u.language } : {}) }])),
      () => new Map<number, Record<string, unknown>>(),
    );
    const server = await cache.get(cacheKeys.serverAttributes()).then(
      (raw) => (raw ? (JSON.parse(raw) as Record<string, unknown>[]) : [])[0] ?? {},
      () => ({}),
    );
    read = { at: now(), users, server };
    return read;
  }
  return async (userId) => {
    const r = await load();
    return presentationOf(userId === undefined ? undefined : { attributes: r.users.get(userId) }, { attributes: r.server });
  };
}
