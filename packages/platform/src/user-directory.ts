import { z } from 'zod';
import type { Cache } from './adapters/cache';
import { cacheKeys } from './cache-keys';
import { AppError } from './errors';
import { companyScope } from './identity';
import type { ReferenceCheck } from './references';

/**
 * Who each user is: id and company for a reference check, the account email (where an
 * administrator's announcement and inbox notices are mailed), the roles (who a notice addressed
 * to a role reaches), the language (attributes.language: a web notification's sentence) and the
 * units and time zone a user reads (attributes speedUnit, distanceUnit, timezone: the files of
 * reports, the notices mailed). The gateway owns users and publishes this.
 */
export const UserDirectory = z.array(
  z.object({
    id: z.number().int(),
    companyId: z.number().int().nullable(),
    email: z.string().optional(),
    roles: z.array(z.string()).optional(),
    language: z.string().optional(),
    preferences: z.record(z.string(), z.unknown()).optional(),
  }),
);
export type UserDirectory = z.infer<typeof UserDirectory>;

/** The gateway writes the whole directory after every change to users and at start. */
export async function publishUserDirectory(cache: Cache, users: UserDirectory): Promise<void> {
  await cache.set(cacheKeys.userDirectory(), JSON.stringify(users));
}

/**
 * A user id a request names (a notification recipient, a filter): the caller themself, a user of
 * the caller's company, or any existing user for staff. Read fresh from the directory the gateway
 * publishes; without it, no user can be checked (503, never a silent pass).
 */
export function userReferenceCheck(cache: Cache): ReferenceCheck {
  return async (ids, who, site) => {
    const byId = new Map((await readUserDirectory(cache)).map((u) => [u.id, u.companyId]));
    const scope = site.scope === 'any' ? undefined : companyScope(who);
    return ids.filter(
      (id) => typeof id === 'number' && byId.has(id) && (id === who.userId || scope === undefined || byId.get(id) === scope),
    );
  };
}

/** The directory as the gateway published it; 503 when the cache cannot be read or nothing is published. */
export async function readUserDirectory(cache: Cache): Promise<UserDirectory> {
  let raw: string | null;
  try {
    raw = await cache.get(cacheKeys.userDirectory());
  } catch (err) {
    throw new AppError('UNAVAILABLE', 'The user directory is unavailable', { cause: (err as Error).message }, true);
  }
  const parsed = raw === null ? undefined : UserDirectory.safeParse(JSON.parse(raw));
  if (!parsed?.success)
    throw new AppError('UNAVAILABLE', 'The user directory is not published (the gateway publishes it at start)', undefined, true);
  return parsed.data;
}
