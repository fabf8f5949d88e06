import type { User, UserCreate, UserUpdate } from '@corridor/contracts';
import { AppError, notFound, type Identity, type Orm } from '@corridor/platform';
import { audit, type AuditActor } from '../audit/audit';
import type { PasswordHasher } from '../auth/password-hash';
import type { AuthVia } from '../auth/authenticator';
import type { LoginThrottle } from '../auth/login-throttle';
import type { SessionStore } from '../auth/sessions';
import type { TokenService } from '../auth/tokens';
import { invalidField } from '../http/invalid-field';
import type { UserRow } from '../db/schema';
import type { PermissionsRepository } from '../permissions/repository';
import type { Notifier } from '../password/notifier';
import type { UserFilter, UsersRepository } from './repository';
import { privilegedChanges, toUser, userValues } from './user-model';

const uniqueViolation = (err: unknown): string | undefined => {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.cause?.code;
  if (code !== '23505') return undefined;
  const constraint = e?.constraint ?? e?.cause?.constraint ?? '';
  return constraint.includes('login') ? 'login' : 'email';
};

const auditView = (r: UserRow) => ({ ...toUser(r), password: undefined });

/** Users: administrators manage everyone; a user may read and edit their own settings. */
export function usersService(deps: {
  db: Orm;
  repo: UsersRepository;
  permissions: PermissionsRepository;
  hasher: PasswordHasher;
  sessions: SessionStore;
  /** API tokens: a new password revokes the user's. */
  tokens?: Pick<TokenService, 'revokeAllOf'>;
  /** Sign-in throttling: wrong current passwords count in it, and an administrator lifts its locks. */
  throttle?: Pick<LoginThrottle, 'check' | 'failed' | 'succeeded' | 'unlock'>;
  /** After a committed change (publishes the user directory). */
  onChange?: () => Promise<void>;
  /** Tells an account's old address that its email changed. */
  notifier?: Pick<Notifier, 'emailChanged'>;
  now?: () => Date;
}) {
  const { db, repo, hasher, sessions } = deps;

  async function write<T>(fn: () => Promise<T>, input: { email: string; login?: string | null }): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const field = uniqueViolation(err);
      if (field)
        throw new AppError('CONFLICT', `A user with this ${field} already exists`, {
          field,
          value: field === 'login' ? input.login : input.email,
        });
      throw err;
    }
  }

  /** Refuses a change that would leave no enabled administrator. */
  async function keepAnAdmin(before: UserRow, stillAdmin: boolean, tx: Orm): Promise<void> {
    if (!before.roles.includes('admin') || before.disabled || stillAdmin) return;
    if ((await repo.countActiveAdmins(before.id, tx)) === 0) {
      throw new AppError('CONFLICT', 'This is the last enabled administrator; add another first', { userId: before.id });
    }
  }

  /** Checks one's current password as a sign-in would: throttled per account and address, a wrong one counted (403). */
  async function currentPassword(user: UserRow, given: string, ip: string | undefined): Promise<void> {
    if (ip !== undefined) await deps.throttle?.check(user.email, ip);
    if (!(await hasher.verify(given, user.passwordHash))) {
      if (ip !== undefined) await deps.throttle?.failed(user.email, ip);
      throw new AppError('FORBIDDEN', 'The current password is wrong', { field: 'currentPassword' });
    }
    if (ip !== undefined) await deps.throttle?.succeeded(user.email, ip);
  }

  return {
    async list(f: UserFilter): Promise<User[]> {
      return (await repo.list(f)).map(toUser);
    },
    /** Administrators see anyone; others only themselves (anyone else is 404, as if absent). */
    async get(id: number, caller: Identity): Promise<User> {
      const row = caller.roles.includes('admin') || caller.userId === id ? await repo.get(id) : undefined;
      if (!row) throw notFound('User', id);
      return toUser(row);
    },
    async create(input: UserCreate, actor: AuditActor): Promise<User> {
      const passwordHash = await hasher.hash(input.password);
      const row = await write(
        () =>
          db.transaction(async (tx) => {
            const r = await repo.insert({ ...userValues(input), passwordHash }, tx);
            await audit.record(tx, actor, { action: 'user.create', entityType: 'user', entityId: r.id, after: auditView(r) });
            return r;
          }),
        input,
      );
      await deps.onChange?.();
      return toUser(row);
    },
    /**
     * `ctx.sessionId`: the caller's own session, kept when they change their own password (their
     * other sessions end); `ctx.via`: how the request was authenticated; `ctx.ip`: the caller's
     * address (wrong current passwords count in the sign-in throttle for it).
     */
    async update(
      id: number,
      input: UserUpdate,
      caller: Identity,
      actor: AuditActor,
      ctx: { sessionId?: string; via?: AuthVia; ip?: string } = {},
    ): Promise<User> {
      const isAdmin = caller.roles.includes('admin');
      if (!isAdmin && caller.userId !== id) throw notFound('User', id);
      const before = await repo.get(id);
      if (!before) throw notFound('User', id);
      const values = userValues(input, before);
      if (!isAdmin) {
        const changed = privilegedChanges(before, values);
        if (changed.length) throw new AppError('FORBIDDEN', `Only an administrator may change ${changed.join(', ')}`, { fields: changed });
      }
      // one's own password changes only with the current one (a borrowed session cannot take the
      // account); a request signed with HTTP Basic carries the current password and proved it
      // itself, so a Traccar client's PUT of its own user (which has no currentPassword) passes
      const own = caller.userId === id;
      // so is one's own email (issue 23: a stolen session or token changed it, then reset the password through it)
      const emailChanged = values.email !== undefined && values.email.toLowerCase() !== before.email.toLowerCase();
      const guarded = input.password ? 'password' : emailChanged ? 'email' : undefined;
      if (guarded && own && before.passwordHash && (input.currentPassword !== undefined || ctx.via !== 'basic')) {
        if (!input.currentPassword)
          throw invalidField('body', 'currentPassword', `required to change your own ${guarded} (or sign the request with HTTP Basic)`);
        await currentPassword(before, input.currentPassword, ctx.ip);
      }
      const passwordHash = input.password ? await hasher.hash(input.password) : undefined;
      const row = await write(
        () =>
          db.transaction(async (tx) => {
            await keepAnAdmin(before, values.roles!.includes('admin') && !values.disabled, tx);
            const r = await repo.update(id, passwordHash ? { ...values, passwordHash } : values, tx);
            if (!r) throw notFound('User', id);
            await audit.record(tx, actor, {
              action: passwordHash ? 'user.update+password' : 'user.update',
              entityType: 'user',
              entityId: id,
              before: auditView(before),
              after: auditView(r),
            });
            return r;
          }),
        input,
      );
      // a new password ends the user's other sessions and revokes their API tokens; a disabled
      // account ends every session (its tokens stop at the next request)
      if (passwordHash) {
        await sessions.destroyAll(id, own ? ctx.sessionId : undefined);
        await deps.tokens?.revokeAllOf(id);
      } else if (row.disabled && !before.disabled) await sessions.destroyAll(id);
      if (emailChanged) {
        await deps.notifier?.emailChanged({
          email: before.email,
          name: before.name,
          newEmail: row.email,
          byAdministrator: !own,
          at: deps.now?.() ?? new Date(),
        });
      }
      await deps.onChange?.();
      return toUser(row);
    },
    /** An administrator lifts the user's sign-in locks (audited). */
    async unlock(id: number, actor: AuditActor): Promise<void> {
      const user = await repo.get(id);
      if (!user) throw notFound('User', id);
      await deps.throttle?.unlock(user.email);
      await audit.record(db, actor, { action: 'user.unlock', entityType: 'user', entityId: id });
    },
    async remove(id: number, actor: AuditActor): Promise<void> {
      await db.transaction(async (tx) => {
        const before = await repo.get(id, tx);
        if (!before) throw notFound('User', id);
        await keepAnAdmin(before, false, tx);
        await repo.delete(id, tx);
        await deps.permissions.removeOwner('userId', id, tx);
        await audit.record(tx, actor, { action: 'user.delete', entityType: 'user', entityId: id, before: auditView(before) });
      });
      await sessions.destroyAll(id);
      await deps.onChange?.();
    },
  };
}
export type UsersService = ReturnType<typeof usersService>;
