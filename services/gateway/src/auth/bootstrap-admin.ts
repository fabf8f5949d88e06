import type { Logger, Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { UsersRepository } from '../users/repository';
import type { PasswordHasher } from './password-hash';

/**
 * The bootstrap administrator: when no enabled administrator exists (a fresh install), one is
 * created from ADMIN_EMAIL / ADMIN_PASSWORD, so the API can be reached before any user exists.
 * If a user with that email exists already, it is given the admin role (its password stays).
 * Once any administrator exists this does nothing, so the variables can be dropped.
 */
export async function ensureBootstrapAdmin(
  deps: { db: Orm; users: UsersRepository; hasher: PasswordHasher; logger: Logger },
  admin: { email: string; password: string },
): Promise<'created' | 'promoted' | 'present'> {
  const { users, logger } = deps;
  if ((await users.countActiveAdmins()) > 0) return 'present';
  const actor = { userId: null, email: 'bootstrap' };
  const existing = await users.byEmailOrLogin(admin.email);
  if (existing) {
    const roles = existing.roles.includes('admin') ? existing.roles : [...existing.roles, 'admin' as const];
    await deps.db.transaction(async (tx) => {
      await users.update(existing.id, { roles, disabled: false }, tx);
      await audit.record(tx, actor, {
        action: 'user.bootstrap-admin',
        entityType: 'user',
        entityId: existing.id,
        before: { roles: existing.roles, disabled: existing.disabled },
        after: { roles },
      });
    });
    logger.warn({ email: admin.email }, 'no enabled administrator: gave the ADMIN_EMAIL user the admin role');
    return 'promoted';
  }
  const passwordHash = await deps.hasher.hash(admin.password);
  try {
    await deps.db.transaction(async (tx) => {
      const created = await users.insert({ email: admin.email, name: 'Administrator', roles: ['admin'], passwordHash }, tx);
      await audit.record(tx, actor, {
        action: 'user.bootstrap-admin',
        entityType: 'user',
        entityId: created.id,
        after: { email: admin.email, roles: ['admin'] },
      });
    });
  } catch (err) {
    // another gateway instance starting at the same time created it first
    if ((await users.byEmailOrLogin(admin.email))?.roles.includes('admin')) return 'present';
    throw err;
  }
  logger.warn({ email: admin.email }, 'created the bootstrap administrator from ADMIN_EMAIL / ADMIN_PASSWORD');
  return 'created';
}
