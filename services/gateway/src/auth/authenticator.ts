import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenScope } from '@corridor/contracts';
import { AppError, counter, type Identity } from '@corridor/platform';
import type { UserRow } from '../db/schema';
import { refused, TotpRequired } from '../totp/service';
import type { UsersRepository } from '../users/repository';
import { identityOf, inactiveReason } from '../users/user-model';
import { SignInRefused, type LoginThrottle } from './login-throttle';
import type { PasswordHasher } from './password-hash';
import { SESSION_COOKIE, clearSessionCookie, sessionIdOf, type CookieSettings } from './session-cookie';
import type { SessionStore } from './sessions';
import type { TokenService } from './tokens';

const signIns = counter('gateway_sign_ins_total', 'Password checks (session, basic)', ['outcome']);

export type AuthVia = 'cookie' | 'bearer' | 'basic';

export interface Authenticated {
  identity: Identity;
  user: UserRow;
  via: AuthVia;
  scope: TokenScope;
  sessionId?: string;
  /** The administrator acting as `user` in an impersonation session. */
  impersonator?: { id: number; email: string };
}

const BASIC_CACHE_MS = 60000;
const BASIC_CACHE_MAX = 10000;

/**
 * Who is calling: a cookie session, a bearer token (header, or ?token= where a client cannot send
 * headers) or HTTP Basic (stateless, as Traccar allows). Wrong credentials that were presented
 * (bearer, basic) answer 401; a stale or tampered cookie is dropped and the caller is anonymous.
 */
export function authenticator(deps: {
  users: UsersRepository;
  tokens: TokenService;
  sessions: SessionStore;
  throttle: LoginThrottle;
  hasher: PasswordHasher;
  cookie: CookieSettings;
  now: () => Date;
  /** The second factor after a right password: resolves, or throws 401 (TotpRequired when no code was sent). */
  secondFactor: (user: UserRow, code: string | undefined) => Promise<void>;
}) {
  const { users, tokens, sessions, throttle, hasher, now } = deps;
  // verified basic credentials → user id, so stateless clients do not pay scrypt on every request;
  // an entry holds only while the stored hash is unchanged (a password change invalidates it)
  const basicVerified = new Map<string, { userId: number; hash: string; until: number }>();

  function active(user: UserRow | undefined): UserRow {
    if (!user) throw new AppError('UNAUTHENTICATED', 'Invalid credentials');
    const reason = inactiveReason(user, now());
    if (reason) throw new AppError('UNAUTHENTICATED', reason, refused('accountInactive'));
    return user;
  }

  /**
   * Email (or login), password and, for a user with TOTP, the code → the user; 401 when wrong, 429
   * while the address waits after a failure or is locked. A wrong code counts as a failed sign-in;
   * a missing one does not (it is the first step of a two-step sign-in). The throttle counts the
   * account by its email, however it was named. A lock (not a wait) is lifted by the right password
   * with a valid second factor; for an account without one it holds (else the lock would tell a
   * guesser which password is right), and any other attempt answers the same 429.
   */
  async function password(login: string, pass: string, ip: string, code?: string): Promise<UserRow> {
    const user = await users.byEmailOrLogin(login);
    const account = user?.email ?? login;
    try {
      await throttle.check(account, ip);
    } catch (err) {
      if (!(err instanceof SignInRefused) || err.by === 'delay' || !user?.totpKey || code === undefined) throw err;
      if (!(await hasher.verify(pass, user.passwordHash)) || inactiveReason(user, now())) throw err;
      await deps.secondFactor(user, code).catch(() => Promise.reject(err));
      signIns.inc({ outcome: 'unlocked' });
      await throttle.succeeded(account, ip);
      return user;
    }
    const ok = await hasher.verify(pass, user?.passwordHash ?? null);
    if (!user || !ok) {
      signIns.inc({ outcome: 'wrong' });
      await throttle.failed(account, ip);
      throw new AppError('UNAUTHENTICATED', 'Wrong email or password', refused('credentialsWrong'));
    }
    active(user);
    try {
      await deps.secondFactor(user, code);
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNAUTHENTICATED' && !(err instanceof TotpRequired)) {
        signIns.inc({ outcome: 'wrong-code' });
        await throttle.failed(account, ip);
      }
      throw err;
    }
    signIns.inc({ outcome: 'ok' });
    await throttle.succeeded(account, ip);
    if (hasher.needsRehash(user.passwordHash!)) {
      const rehashed = await hasher.hash(pass);
      return (await users.update(user.id, { passwordHash: rehashed })) ?? user;
    }
    return user;
  }

  async function bearer(token: string): Promise<Authenticated> {
    const row = await tokens.lookup(token);
    if (!row) throw new AppError('UNAUTHENTICATED', 'Invalid, expired or revoked token');
    const user = active(await users.get(row.userId));
    return { identity: identityOf(user), user, via: 'bearer', scope: row.scope };
  }

  async function basic(header: string, ip: string): Promise<Authenticated> {
    const key = createHash('sha256').update(header).digest('base64url');
    const hit = basicVerified.get(key);
    if (hit && hit.until > Date.now()) {
      const user = await users.get(hit.userId);
      if (user && user.passwordHash === hit.hash && !user.totpKey)
        return { identity: identityOf(active(user)), user, via: 'basic', scope: 'full' };
    }
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 1) throw new AppError('UNAUTHENTICATED', 'Malformed basic credentials');
    const user = await password(decoded.slice(0, colon), decoded.slice(colon + 1), ip);
    if (basicVerified.size >= BASIC_CACHE_MAX) basicVerified.clear();
    basicVerified.set(key, { userId: user.id, hash: user.passwordHash!, until: Date.now() + BASIC_CACHE_MS });
    return { identity: identityOf(user), user, via: 'basic', scope: 'full' };
  }

  async function cookie(req: FastifyRequest, reply: FastifyReply): Promise<Authenticated | undefined> {
    if (!req.cookies[SESSION_COOKIE]) return undefined;
    const sid = sessionIdOf(req);
    const session = sid ? await sessions.get(sid) : undefined;
    const user = session ? await users.get(session.userId) : undefined;
    // an impersonation session lasts only while its administrator is an enabled administrator
    const admin = session?.impersonatorId ? await users.get(session.impersonatorId) : undefined;
    const adminGone = Boolean(session?.impersonatorId) && (!admin || inactiveReason(admin, now()) || !admin.roles.includes('admin'));
    if (!sid || !session || !user || inactiveReason(user, now()) || adminGone) {
      if (sid && session) await sessions.destroy(sid, session.userId);
      clearSessionCookie(reply, deps.cookie);
      return undefined;
    }
    return {
      identity: identityOf(user),
      user,
      via: 'cookie',
      scope: 'full',
      sessionId: sid,
      ...(admin ? { impersonator: { id: admin.id, email: admin.email } } : {}),
    };
  }

  return {
    password,
    bearer,
    async fromRequest(
      req: FastifyRequest,
      reply: FastifyReply,
      opts: { queryToken?: string; ip: string },
    ): Promise<Authenticated | undefined> {
      const h = req.headers.authorization;
      if (h) {
        if (/^bearer /i.test(h)) return bearer(h.slice(7).trim());
        if (/^basic /i.test(h)) return basic(h, opts.ip);
        throw new AppError('UNAUTHENTICATED', 'Unsupported authorization scheme (use Bearer or Basic)');
      }
      if (opts.queryToken) return bearer(opts.queryToken);
      return cookie(req, reply);
    },
  };
}
export type Authenticator = ReturnType<typeof authenticator>;
