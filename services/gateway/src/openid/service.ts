import { AppError, type Cache, type Orm } from '@corridor/platform';
import { audit, type AuditActor } from '../audit/audit';
import type { UserRow } from '../db/schema';
import { invalidField } from '../http/invalid-field';
import type { UsersRepository } from '../users/repository';
import { inactiveReason, toUser } from '../users/user-model';
import { mapClaims, type ClaimSettings } from './claims';
import type { OpenIdClient } from './client';

const STATE_TTL_SECONDS = 600;
const stateKey = (state: string): string => `gw:oidc-state:${state}`;

interface PendingSignIn {
  nonce: string;
  codeVerifier: string;
}

/**
 * OpenID sign-in: the state (with its nonce and PKCE verifier) is kept in the cache for ten minutes
 * and consumed by the first callback that presents it, so a replayed or forged state is refused.
 * The claims find the user by subject, then by email (linking the subject), or create one; the
 * provider's roles and company replace the stored ones when it sends any.
 */
export function openIdService(deps: {
  db: Orm;
  cache: Cache;
  users: UsersRepository;
  client: OpenIdClient;
  claims: ClaimSettings;
  now: () => Date;
  onUserChange?: () => Promise<void>;
}) {
  const { cache, users } = deps;

  async function upsert(claims: Record<string, unknown>, actor: AuditActor): Promise<UserRow> {
    const m = mapClaims(deps.client.issuer, claims, deps.claims);
    let user = (await users.byOidcSubject(m.subject)) ?? (await users.byEmailOrLogin(m.email));
    if (user && user.email.toLowerCase() !== m.email.toLowerCase() && user.oidcSubject !== m.subject) user = undefined;
    if (user?.oidcSubject && user.oidcSubject !== m.subject)
      throw new AppError('FORBIDDEN', 'This email is linked to another OpenID account');
    return deps.db.transaction(async (tx) => {
      if (!user) {
        if (!m.roles.length) throw new AppError('FORBIDDEN', 'The identity provider grants this account no role here');
        const created = await users.insert(
          { email: m.email, name: m.name, roles: m.roles, companyId: m.companyId ?? null, oidcSubject: m.subject },
          tx,
        );
        await audit.record(
          tx,
          { ...actor, userId: created.id, email: created.email },
          { action: 'user.create.openid', entityType: 'user', entityId: created.id, after: toUser(created) },
        );
        return created;
      }
      const changes = {
        oidcSubject: m.subject,
        name: m.name,
        ...(m.roles.length ? { roles: m.roles } : {}),
        ...(m.companyId !== undefined ? { companyId: m.companyId } : {}),
      };
      const updated = (await users.update(user.id, changes, tx))!;
      if (
        JSON.stringify(user.roles) !== JSON.stringify(updated.roles) ||
        user.companyId !== updated.companyId ||
        user.oidcSubject !== updated.oidcSubject
      ) {
        await audit.record(
          tx,
          { ...actor, userId: user.id, email: user.email },
          { action: 'user.update.openid', entityType: 'user', entityId: user.id, before: toUser(user), after: toUser(updated) },
        );
      }
      return updated;
    });
  }

  return {
    async start(): Promise<URL> {
      const s = await deps.client.start();
      const pending: PendingSignIn = { nonce: s.nonce, codeVerifier: s.codeVerifier };
      await cache.set(stateKey(s.state), JSON.stringify(pending), STATE_TTL_SECONDS);
      return s.url;
    },
    async finish(
      query: { state?: string; error?: string; error_description?: string },
      rawQuery: string,
      actor: AuditActor,
    ): Promise<UserRow> {
      const raw = query.state ? await cache.get(stateKey(query.state)) : null;
      // the first callback with this state consumes it; any later one (a replay) finds nothing
      const claimed = raw !== null && (await cache.del(stateKey(query.state!))) === 1;
      if (query.error)
        throw new AppError(
          'UNAUTHENTICATED',
          `The identity provider refused: ${query.error}${query.error_description ? ` (${query.error_description})` : ''}`,
        );
      if (!claimed) throw invalidField('querystring', 'state', 'unknown, expired or already used');
      const pending = JSON.parse(raw) as PendingSignIn;
      const claims = await deps.client.finish(rawQuery, { state: query.state!, ...pending });
      const user = await upsert(claims, actor);
      await deps.onUserChange?.();
      const reason = inactiveReason(user, deps.now());
      if (reason) throw new AppError('UNAUTHENTICATED', reason);
      await users.recordLogin(user.id, deps.now());
      await audit.record(
        deps.db,
        { ...actor, userId: user.id, email: user.email },
        { action: 'session.login.openid', entityType: 'session', entityId: user.id },
      );
      return user;
    },
  };
}
export type OpenIdService = ReturnType<typeof openIdService>;
