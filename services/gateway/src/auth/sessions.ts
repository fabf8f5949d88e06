import { createHash, randomBytes } from 'node:crypto';
import type { Cache } from '@corridor/platform';

export type SignInMethod = 'password' | 'openid' | 'token' | 'impersonation';

export interface SessionData {
  userId: number;
  method: SignInMethod;
  createdAt: string;
  /** The administrator acting as `userId` (method 'impersonation'). */
  impersonatorId?: number;
}

const digest = (sid: string): string => createHash('sha256').update(sid).digest('base64url');
const sessionKey = (sid: string): string => `gw:session:${digest(sid)}`;
const userSessionsKey = (userId: number): string => `gw:user-sessions:${userId}`;

/**
 * Cookie sessions in the cache (Redis in production, so every gateway instance sees them): the
 * session id is 256 random bits, stored only as its SHA-256, with a TTL. A per-user index lets a
 * password change or a disabled account end every session of that user at once.
 */
export function sessionStore(cache: Cache, ttlSeconds: number, now: () => Date) {
  return {
    ttlSeconds,
    /** A new session; an impersonation session is indexed under the administrator too, so theirs end with it. */
    async create(userId: number, method: SignInMethod, opts: { impersonatorId?: number } = {}): Promise<string> {
      const sid = randomBytes(32).toString('base64url');
      const data: SessionData = {
        userId,
        method,
        createdAt: now().toISOString(),
        ...(opts.impersonatorId ? { impersonatorId: opts.impersonatorId } : {}),
      };
      await cache.set(sessionKey(sid), JSON.stringify(data), ttlSeconds);
      for (const owner of opts.impersonatorId ? [userId, opts.impersonatorId] : [userId]) {
        const index = userSessionsKey(owner);
        const expired = Object.entries(await cache.hgetall(index)).filter(([, until]) => Number(until) <= now().getTime());
        if (expired.length) await cache.hdel(index, ...expired.map(([k]) => k));
        await cache.hset(index, { [digest(sid)]: String(now().getTime() + ttlSeconds * 1000) });
      }
      return sid;
    },
    async get(sid: string): Promise<SessionData | undefined> {
      const raw = await cache.get(sessionKey(sid));
      if (!raw) return undefined;
      try {
        return JSON.parse(raw) as SessionData;
      } catch {
        return undefined;
      }
    },
    async destroy(sid: string, userId?: number): Promise<void> {
      await cache.del(sessionKey(sid));
      if (userId !== undefined) await cache.hdel(userSessionsKey(userId), digest(sid));
    },
    /** Ends every session of the user but `keep` (the caller's own, when given); returns how many were live. */
    async destroyAll(userId: number, keep?: string): Promise<number> {
      const index = userSessionsKey(userId);
      const kept = keep === undefined ? undefined : digest(keep);
      const digests = Object.keys(await cache.hgetall(index)).filter((d) => d !== kept);
      const n = digests.length ? await cache.del(...digests.map((d) => `gw:session:${d}`)) : 0;
      if (kept === undefined) await cache.del(index);
      else if (digests.length) await cache.hdel(index, ...digests);
      return n;
    },
  };
}
export type SessionStore = ReturnType<typeof sessionStore>;
