import { AppError, notFound, type Orm } from '@corridor/platform';
import { audit, type AuditActor } from '../audit/audit';
import type { Authenticated } from '../auth/authenticator';
import type { SessionStore } from '../auth/sessions';
import type { UserRow } from '../db/schema';
import { invalidField } from '../http/invalid-field';
import type { UsersRepository } from '../users/repository';
import { inactiveReason } from '../users/user-model';

/**
 * Impersonation (Traccar's GET /session/{id}): an administrator's session is replaced by a new
 * session of the user that records the administrator. Both ends are audited with both people.
 * Ending it signs out; it does not hand the administrator's rights back to that cookie.
 */
export function impersonation(deps: { db: Orm; users: UsersRepository; sessions: SessionStore; now: () => Date }) {
  const { users, sessions } = deps;
  return {
    /** The new session id and the user it acts as; 404 unknown, 403 disabled or expired, 400 oneself. */
    async start(caller: Authenticated, targetId: number, actor: AuditActor): Promise<{ sid: string; user: UserRow }> {
      if (targetId === caller.user.id) throw invalidField('params', 'id', 'is the caller: sign in as yourself instead');
      const target = await users.get(targetId);
      if (!target) throw notFound('User', targetId);
      const reason = inactiveReason(target, deps.now());
      if (reason) throw new AppError('FORBIDDEN', `User ${targetId} cannot be impersonated: ${reason.toLowerCase()}`, { userId: targetId });
      // an administrator impersonating another administrator stays the one on record
      const admin = caller.impersonator ?? { id: caller.user.id, email: caller.user.email };
      if (admin.id === targetId) throw invalidField('params', 'id', 'is the impersonating administrator: sign in again instead');
      if (caller.sessionId) await sessions.destroy(caller.sessionId, caller.user.id);
      const sid = await sessions.create(target.id, 'impersonation', { impersonatorId: admin.id });
      await audit.record(
        deps.db,
        { ...actor, userId: admin.id, email: admin.email },
        {
          action: 'session.impersonate',
          entityType: 'session',
          entityId: target.id,
          after: { userId: target.id, email: target.email, impersonatorId: admin.id, impersonatorEmail: admin.email, via: caller.via },
        },
      );
      return { sid, user: target };
    },
    /** Sign-out of an impersonation session, on record under the administrator. */
    async end(auth: Authenticated & { impersonator: { id: number; email: string } }, actor: AuditActor): Promise<void> {
      await sessions.destroy(auth.sessionId!, auth.user.id);
      await audit.record(
        deps.db,
        { ...actor, userId: auth.impersonator.id, email: auth.impersonator.email },
        {
          action: 'session.impersonation-end',
          entityType: 'session',
          entityId: auth.user.id,
          before: { userId: auth.user.id, email: auth.user.email, impersonatorId: auth.impersonator.id },
        },
      );
    },
  };
}
export type Impersonation = ReturnType<typeof impersonation>;
