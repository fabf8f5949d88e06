import { createHash } from 'node:crypto';
import { AppError, counter, type Cache } from '@corridor/platform';

const lockouts = counter('gateway_login_lockouts_total', 'Sign-ins refused because an account or address is locked or waiting', ['by']);

export interface ThrottleSettings {
  /** Failures of one account from one address before that pair is locked. */
  maxPerAccount: number;
  /** Failures from one address (any accounts) before it is locked for accounts never signed in from it. */
  maxPerIp: number;
  /** Failures of one account from all addresses before it is locked for addresses it never signed in from. */
  maxPerAccountAll?: number;
  lockoutSeconds: number;
  /** The wait after a pair's second failure; it doubles with each further failure until the lock (0: no wait). */
  delaySeconds?: number;
}

export type LockedBy = 'account' | 'account-wide' | 'ip';

/** 429 while a pair waits after a failure (delay) or while a lock holds. */
export class SignInRefused extends AppError {
  constructor(
    readonly by: LockedBy | 'delay',
    retryAfterSeconds: number,
  ) {
    super(
      'RATE_LIMITED',
      by === 'delay' ? 'Too many failed sign-ins; wait before the next attempt' : 'Too many failed sign-ins; try again later',
      by === 'delay' ? { retryAfterSeconds, delayed: true } : { retryAfterSeconds, lockedBy: by },
    );
  }
}

/** How long an address where an account signed in stays known to it. */
const KNOWN_SECONDS = 30 * 86400;

const digest = (login: string): string => createHash('sha256').update(login.trim().toLowerCase()).digest('base64url');
const accountKey = (acct: string): string => `gw:login-fail:acct:${acct}`;
/** Bumped by a password reset: forgets the pairs and the known addresses. */
const generationKey = (acct: string): string => `gw:login-gen:${acct}`;
/** Bumped by an administrator's unlock: forgets the pairs (their failures, waits and locks), keeps the known addresses. */
const pairGenerationKey = (acct: string): string => `gw:login-pgen:${acct}`;
const pairKey = (acct: string, gen: string, ip: string): string => `gw:login-fail:pair:${acct}:${gen}:${ip}`;
const waitKey = (acct: string, gen: string, ip: string): string => `gw:login-wait:${acct}:${gen}:${ip}`;
const knownKey = (acct: string, gen: string, ip: string): string => `gw:login-known:${acct}:${gen}:${ip}`;
const ipKey = (ip: string): string => `gw:login-fail:ip:${ip}`;
/** Set by an administrator's unlock for lockoutSeconds: the account is not refused for its addresses' failures with other accounts. */
const liftedKey = (acct: string): string => `gw:login-lifted:${acct}`;

/**
 * Sign-in throttling with counters in the shared cache (Redis: they survive restarts and hold
 * across gateway instances). `login` is the account's canonical name (its email when the account
 * exists, so signing in by login name or email counts alike). Failures count per account and
 * address:
 * - a progressive delay: after the n-th failure of a pair (n ≥ 2: a first typo costs nothing), that pair waits delaySeconds·2^(n-2)
 *   (429 with Retry-After, the password not even checked) before its next attempt;
 * - maxPerAccount failures lock the pair (429 for lockoutSeconds, even with the right password),
 *   and nowhere else, so an attacker cannot lock the real user out by guessing;
 * - an address where the account signed in before (known, 30 days) is never refused for the
 *   failures of other addresses: an account failing maxPerAccountAll times from everywhere is
 *   locked only for unknown addresses, and an address failing maxPerIp times across accounts only
 *   for accounts unknown there.
 * A lock is lifted by its time, by an administrator (unlock), by a password reset, and by the right
 * password with a valid second factor (the authenticator decides that; `succeeded` clears the pair).
 * Times come from `now` (the service clock); the cache's expiry only collects the keys.
 */
export function loginThrottle(cache: Cache, s: ThrottleSettings, now: () => Date = () => new Date()) {
  const maxAll = s.maxPerAccountAll ?? s.maxPerAccount * 10;
  const delaySeconds = s.delaySeconds ?? 1;
  const refuse = (by: LockedBy | 'delay', retryAfterSeconds = s.lockoutSeconds) => {
    lockouts.inc({ by });
    return new SignInRefused(by, retryAfterSeconds);
  };
  async function bump(key: string, max: number): Promise<number> {
    const n = await cache.incr(key, s.lockoutSeconds);
    // the lock lasts lockoutSeconds from the failure that set it, not from the first failure
    if (n === max) await cache.set(key, String(n), s.lockoutSeconds);
    return n;
  }
  /** The reset generation, and the pair generation within it. */
  async function generations(acct: string): Promise<{ gen: string; pair: string }> {
    const [gen, pgen] = await cache.mget([generationKey(acct), pairGenerationKey(acct)]);
    return { gen: gen ?? '0', pair: `${gen ?? '0'}.${pgen ?? '0'}` };
  }
  return {
    settings: s,
    /** Throws SignInRefused while the pair waits after a failure or a lock holds for it. */
    async check(login: string, ip: string): Promise<void> {
      const acct = digest(login);
      const g = await generations(acct);
      const [pair, wait, all, addr, known, lifted] = await cache.mget([
        pairKey(acct, g.pair, ip), waitKey(acct, g.pair, ip), accountKey(acct), ipKey(ip), knownKey(acct, g.gen, ip), liftedKey(acct),
      ]);
      if (Number(pair ?? 0) >= s.maxPerAccount) throw refuse('account');
      const waitMs = Number(wait ?? 0) - now().getTime();
      if (waitMs > 0) throw refuse('delay', Math.ceil(waitMs / 1000));
      if (known || lifted) return;
      if (Number(all ?? 0) >= maxAll) throw refuse('account-wide');
      if (Number(addr ?? 0) >= s.maxPerIp) throw refuse('ip');
    },
    async failed(login: string, ip: string): Promise<void> {
      const acct = digest(login);
      const g = await generations(acct);
      const [n] = await Promise.all([bump(pairKey(acct, g.pair, ip), s.maxPerAccount), bump(accountKey(acct), maxAll), bump(ipKey(ip), s.maxPerIp)]);
      // the first failure costs nothing (a typo); each further one waits twice as long as the one before
      if (n >= 2 && n < s.maxPerAccount && delaySeconds > 0) {
        const wait = Math.min(delaySeconds * 2 ** (n - 2), s.lockoutSeconds);
        await cache.set(waitKey(acct, g.pair, ip), String(now().getTime() + wait * 1000), Math.ceil(wait) + 60);
      }
    },
    /** A right password (and second factor): the pair is cleared and the address known. Without an address (a reset): every pair and known address forgotten. */
    async succeeded(login: string, ip?: string): Promise<void> {
      const acct = digest(login);
      if (ip === undefined) {
        await cache.incr(generationKey(acct));
        await cache.del(accountKey(acct));
        return;
      }
      const g = await generations(acct);
      await cache.del(pairKey(acct, g.pair, ip), waitKey(acct, g.pair, ip));
      await cache.set(knownKey(acct, g.gen, ip), '1', KNOWN_SECONDS);
    },
    /**
     * An administrator lifts the account's locks and waits: every pair and the account-wide count
     * are forgotten (known addresses stay), and for lockoutSeconds an address locked by other
     * accounts' failures (maxPerIp) does not refuse this account; its own pairs still count.
     */
    async unlock(login: string): Promise<void> {
      const acct = digest(login);
      await cache.incr(pairGenerationKey(acct));
      await cache.del(accountKey(acct));
      await cache.set(liftedKey(acct), '1', s.lockoutSeconds);
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
