import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt } from 'drizzle-orm';
import type { TokenScope } from '@corridor/contracts';
import { notFound, type Identity, type Orm } from '@corridor/platform';
import { audit, type AuditActor } from '../audit/audit';
import { apiTokens, type ApiTokenRow } from '../db/schema';
import { invalidField } from '../http/invalid-field';

const PREFIX = 'crt_';
const DAY = 86400000;
const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

/**
 * Bearer tokens: 256 random bits, prefixed so scanners can spot a leaked one. Only the SHA-256 is
 * stored; a token has an expiry and a scope and can be revoked.
 */
export function tokenService(deps: { db: Orm; now: () => Date; defaultDays: number; maxDays: number }) {
  const { db, now } = deps;
  return {
    async issue(
      userId: number,
      req: { expiration?: string; scope: TokenScope },
      actor: AuditActor,
    ): Promise<{ token: string; row: ApiTokenRow }> {
      const t = now().getTime();
      let expiresAt = new Date(t + deps.defaultDays * DAY);
      if (req.expiration) {
        expiresAt = new Date(req.expiration);
        if (expiresAt.getTime() <= t) throw invalidField('body', 'expiration', 'must be in the future');
        if (expiresAt.getTime() > t + deps.maxDays * DAY) expiresAt = new Date(t + deps.maxDays * DAY);
      }
      const token = PREFIX + randomBytes(32).toString('base64url');
      const row = await db.transaction(async (tx) => {
        const [r] = await tx
          .insert(apiTokens)
          .values({ userId, tokenHash: hashOf(token), scope: req.scope, expiresAt })
          .returning();
        await audit.record(tx, actor, {
          action: 'token.issue',
          entityType: 'token',
          entityId: r!.id,
          after: { userId, scope: req.scope, expiresAt },
        });
        return r!;
      });
      return { token, row };
    },
    /** The live token row (not revoked, not expired), or undefined. */
    async lookup(token: string): Promise<ApiTokenRow | undefined> {
      if (!token.startsWith(PREFIX) || token.length > 100) return undefined;
      const [r] = await db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.tokenHash, hashOf(token)));
      if (!r || r.revokedAt || r.expiresAt.getTime() <= now().getTime()) return undefined;
      return r;
    },
    /** Revokes a token of the caller (administrators: of anyone). Someone else's token is 404, as an unknown one. */
    async revoke(token: string, caller: Identity, actor: AuditActor): Promise<void> {
      const [r] = await db
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.tokenHash, hashOf(token)));
      if (!r || (r.userId !== caller.userId && !caller.roles.includes('admin'))) throw notFound('Token', '(given)');
      if (r.revokedAt) return;
      await db.transaction(async (tx) => {
        await tx.update(apiTokens).set({ revokedAt: now() }).where(eq(apiTokens.id, r.id));
        await audit.record(tx, actor, {
          action: 'token.revoke',
          entityType: 'token',
          entityId: r.id,
          before: { userId: r.userId, scope: r.scope },
        });
      });
    },
    /** After a password reset: every token of the user stops working. */
    async revokeAllOf(userId: number): Promise<void> {
      await db
        .update(apiTokens)
        .set({ revokedAt: now() })
        .where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)));
    },
    /** Drops rows of tokens that expired more than a day ago. */
    async prune(): Promise<number> {
      const gone = await db
        .delete(apiTokens)
        .where(lt(apiTokens.expiresAt, new Date(now().getTime() - DAY)))
        .returning({ id: apiTokens.id });
      return gone.length;
    },
  };
}
export type TokenService = ReturnType<typeof tokenService>;
