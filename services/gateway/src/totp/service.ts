import type { User } from '@corridor/contracts';
import type { SignInRefusal } from '@corridor/contracts/session';
import { AppError, counter, notFound, type Cache, type Orm } from '@corridor/platform';
import { audit, type AuditActor } from '../audit/audit';
import type { LoginThrottle } from '../auth/login-throttle';
import type { PasswordHasher } from '../auth/password-hash';
import type { UserRow } from '../db/schema';
import { invalidField } from '../http/invalid-field';
import type { UsersRepository } from '../users/repository';
import { toUser } from '../users/user-model';
import { newTotpSecret, totpStepOf } from './one-time-code';
import type { TotpRepository } from './repository';

const checks = counter('gateway_totp_checks_total', 'TOTP second-factor checks at sign-in', ['outcome']);
const pendingKey = (userId: number): string => `gw:totp-pending:${userId}`;
/** A refusal's details: its reason as the contract names it (clients word it themselves). */
export const refused = (reason: SignInRefusal): { reason: SignInRefusal } => ({ reason });
/** How long a generated secret waits for its confirming code. */
const TOTP_PENDING_SECONDS = 600;

/** 401 for a user with a second factor who sent no code: POST /session answers it with `WWW-Authenticate: TOTP`. */
export class TotpRequired extends AppError {
  constructor() {
    super('UNAUTHENTICATED', 'A one-time code (TOTP) is required for this account', { totp: 'required', reason: 'codeRequired' });
  }
}

/**
 * The TOTP second factor. Enrolment is confirmed: POST /users/totp keeps the new secret pending in
 * the cache, and only a first valid code (POST /users/totp/confirm) stores it on the user; until then
 * sign-in needs no code, so a secret the user never saved cannot lock them out. Administrators
 * remove a key; a password reset leaves it in place. Each code is accepted once.
 */
export function totpService(deps: {
  db: Orm;
  cache: Cache;
  users: UsersRepository;
  repo: TotpRepository;
  hasher: PasswordHasher;
  throttle: LoginThrottle;
  now: () => Date;
}) {
  const { db, cache, users, repo, hasher, throttle, now } = deps;

  /** The proof for turning one's own second factor off: a current, unused code or the password; a wrong one counts as a failed sign-in. */
  async function prove(user: UserRow & { totpKey: string }, proof: { code?: string; password?: string }, ip: string): Promise<void> {
    await throttle.check(user.email, ip);
    if (proof.code !== undefined) {
      const step = totpStepOf(user.totpKey, proof.code, now());
      if (step === undefined || !(await repo.claimStep(user.id, user.totpKey, step))) {
        await throttle.failed(user.email, ip);
        throw step === undefined
          ? invalidField('body', 'code', 'is not a current code', refused('codeWrong'))
          : invalidField('body', 'code', 'was used already; wait for the next one', refused('codeUsed'));
      }
    } else if (!(await hasher.verify(proof.password ?? '', user.passwordHash))) {
      await throttle.failed(user.email, ip);
      throw new AppError('FORBIDDEN', 'The password is wrong', { field: 'password' });
    }
    await throttle.succeeded(user.email, ip);
  }

  return {
    /** A new pending secret for the caller (replacing a pending one); 409 when a key is active. */
    async start(userId: number): Promise<string> {
      const user = await users.get(userId);
      if (!user) throw notFound('User', userId);
      if (user.totpKey)
        throw new AppError('CONFLICT', 'A TOTP second factor is active already; an administrator must remove it first', {
          totpEnabled: true,
        });
      const secret = newTotpSecret();
      await cache.set(pendingKey(userId), secret, TOTP_PENDING_SECONDS);
      return secret;
    },

    /** Activates the pending secret when `code` is one of its codes. */
    async confirm(userId: number, code: string, actor: AuditActor): Promise<User> {
      const secret = await cache.get(pendingKey(userId));
      if (!secret) throw new AppError('CONFLICT', 'No TOTP enrolment is pending (start with POST /users/totp; a secret waits 10 minutes)');
      const step = totpStepOf(secret, code, now());
      if (step === undefined) throw invalidField('body', 'code', 'is not a current code of the pending secret', refused('codeWrong'));
      const row = await db.transaction(async (tx) => {
        const r = await repo.activate(userId, secret, step, tx);
        if (!r) throw new AppError('CONFLICT', 'A TOTP second factor is active already', { totpEnabled: true });
        await audit.record(tx, actor, { action: 'user.totp-enable', entityType: 'user', entityId: userId, after: { totpEnabled: true } });
        return r;
      });
      await cache.del(pendingKey(userId));
      return toUser(row);
    },

    /** The user turns their own second factor off, proven by a current code or the password (409 when none is active). */
    async disable(userId: number, proof: { code?: string; password?: string }, actor: AuditActor, ip: string): Promise<User> {
      const user = await users.get(userId);
      if (!user) throw notFound('User', userId);
      const key = user.totpKey;
      if (!key) throw new AppError('CONFLICT', 'No TOTP second factor is active', { totpEnabled: false });
      await prove({ ...user, totpKey: key }, proof, ip);
      return db.transaction(async (tx) => {
        const r = await repo.remove(userId, tx);
        if (!r) throw new AppError('CONFLICT', 'No TOTP second factor is active', { totpEnabled: false });
        await audit.record(tx, actor, {
          action: 'user.totp-disable',
          entityType: 'user',
          entityId: userId,
          before: { totpEnabled: true },
          after: { totpEnabled: false },
        });
        return toUser(r);
      });
    },

    /** An administrator removes a user's key (404 when the user is unknown or has none). */
    async remove(userId: number, actor: AuditActor): Promise<void> {
      await db.transaction(async (tx) => {
        const r = await repo.remove(userId, tx);
        if (!r) {
          if (!(await users.get(userId, tx))) throw notFound('User', userId);
          throw new AppError('NOT_FOUND', `User ${userId} has no TOTP second factor`);
        }
        await audit.record(tx, actor, {
          action: 'user.totp-remove',
          entityType: 'user',
          entityId: userId,
          before: { totpEnabled: true },
          after: { totpEnabled: false },
        });
      });
      await cache.del(pendingKey(userId));
    },

    /**
     * The second factor at sign-in, after the password was right: nothing to do without a key;
     * no code → TotpRequired; a wrong code, or one whose step was used already → 401.
     */
    async check(user: UserRow, code: string | undefined): Promise<void> {
      const key = user.totpKey;
      if (!key) return;
      if (code === undefined) {
        checks.inc({ outcome: 'required' });
        throw new TotpRequired();
      }
      const step = totpStepOf(key, code, now());
      if (step === undefined) {
        checks.inc({ outcome: 'wrong' });
        throw new AppError('UNAUTHENTICATED', 'Wrong one-time code', refused('codeWrong'));
      }
      if (!(await repo.claimStep(user.id, key, step))) {
        checks.inc({ outcome: 'replayed' });
        throw new AppError('UNAUTHENTICATED', 'This one-time code was used already; wait for the next one', refused('codeUsed'));
      }
      checks.inc({ outcome: 'ok' });
    },
  };
}
export type TotpService = ReturnType<typeof totpService>;
