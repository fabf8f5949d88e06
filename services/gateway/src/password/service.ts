import { createHash, randomBytes } from 'node:crypto';
import { counter, type Cache, type Logger, type Orm } from '@corridor/platform';
import { audit, type AuditActor } from '../audit/audit';
import type { LoginThrottle } from '../auth/login-throttle';
import type { PasswordHasher } from '../auth/password-hash';
import type { SessionStore } from '../auth/sessions';
import type { TokenService } from '../auth/tokens';
import { invalidField } from '../http/invalid-field';
import type { UsersRepository } from '../users/repository';
import { inactiveReason } from '../users/user-model';
import type { Notifier } from './notifier';

const resets = counter('gateway_password_resets_total', 'Password reset requests and completions', ['step']);
const tokenKey = (token: string): string => `gw:pwreset:${createHash('sha256').update(token).digest('base64url')}`;
const requestsKey = (userId: number): string => `gw:pwreset-requests:${userId}`;
/** Reset notices per user per token lifetime, so the address cannot be flooded. */
const MAX_REQUESTS = 3;

/**
 * Password reset: a request sends a single-use token (only its hash is kept, in the cache, with a
 * TTL) through the notifier; the token sets a new password once, ends every session and token of
 * the user and clears the sign-in lockout. The request answers the same whether or not the
 * address is known.
 */
export function passwordService(deps: {
  db: Orm;
  cache: Cache;
  users: UsersRepository;
  hasher: PasswordHasher;
  sessions: SessionStore;
  tokens: TokenService;
  throttle: LoginThrottle;
  notifier: Notifier;
  logger: Logger;
  ttlSeconds: number;
  resetUrl: string;
  now: () => Date;
}) {
  const { cache, users, logger } = deps;
  return {
    async requestReset(login: string, actor: AuditActor): Promise<void> {
      const user = await users.byEmailOrLogin(login);
      if (!user || inactiveReason(user, deps.now())) {
        resets.inc({ step: 'unknown' });
        return;
      }
      if ((await cache.incr(requestsKey(user.id), deps.ttlSeconds)) > MAX_REQUESTS) {
        resets.inc({ step: 'throttled' });
        logger.warn({ userId: user.id }, 'password reset requests throttled');
        return;
      }
      const token = randomBytes(32).toString('base64url');
      await cache.set(tokenKey(token), String(user.id), deps.ttlSeconds);
      const url = new URL(deps.resetUrl);
      url.searchParams.set('passwordReset', token);
      await deps.notifier.passwordReset({
        email: user.email,
        name: user.name,
        token,
        url: url.toString(),
        expiresAt: new Date(deps.now().getTime() + deps.ttlSeconds * 1000),
      });
      await audit.record(
        deps.db,
        { ...actor, userId: user.id, email: user.email },
        { action: 'password.reset-request', entityType: 'user', entityId: user.id },
      );
      resets.inc({ step: 'requested' });
    },
    async reset(token: string, password: string, actor: AuditActor): Promise<void> {
      const key = tokenKey(token);
      const userId = await cache.get(key);
      // deleting is what claims the token: of two concurrent uses only one deletes it
      if (!userId || (await cache.del(key)) !== 1) throw invalidField('body', 'token', 'unknown, expired or already used');
      const user = await users.get(Number(userId));
      if (!user || inactiveReason(user, deps.now())) throw invalidField('body', 'token', 'unknown, expired or already used');
      const passwordHash = await deps.hasher.hash(password);
      await deps.db.transaction(async (tx) => {
        await users.update(user.id, { passwordHash }, tx);
        await audit.record(
          tx,
          { ...actor, userId: user.id, email: user.email },
          { action: 'password.reset', entityType: 'user', entityId: user.id },
        );
      });
      await Promise.all([
        deps.sessions.destroyAll(user.id),
        deps.tokens.revokeAllOf(user.id),
        deps.throttle.succeeded(user.email),
        cache.del(requestsKey(user.id)),
      ]);
      resets.inc({ step: 'completed' });
    },
  };
}
export type PasswordService = ReturnType<typeof passwordService>;
