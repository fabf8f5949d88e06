import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { AppError, counter, type Cache } from '@corridor/platform';
import { failureCounter, failuresOf } from './login-counters';

const refusals = counter('gateway_login_lockouts_total', 'Sign-ins refused while an account and address wait or are locked', ['by']);

export interface ThrottleSettings {
  /** Failures of one account from one address before that pair is locked. */
  maxPerAccount: number;
  /** Failures from one address (any accounts) after which it is slowed down for accounts never signed in from it. */
  maxPerIp: number;
  /** Failures of one account from all addresses after which addresses it never signed in from are slowed down. */
  maxPerAccountAll?: number;
  lockoutSeconds: number;
  /** The wait after a pair's second failure; it doubles with each further failure until the lock (0: no wait). */
  delaySeconds?: number;
  /** While an account or an address is being guessed at: the wait of a new address before each attempt. */
  newAddressDelaySeconds?: number;
}

/** `account`: the pair (account, address) is locked; `delay`: the pair waits after a failure; `new-address`: a slowed-down new address. */
export type RefusedBy = 'account' | 'delay' | 'new-address';

/** 429 while a pair waits after a failure, a new address is slowed down, or the pair's lock holds. */
export class SignInRefused extends AppError {
  constructor(
    readonly by: RefusedBy,
    retryAfterSeconds: number,
  ) {
    super(
      'RATE_LIMITED',
      by === 'account'
        ? 'Too many failed sign-ins from this address; try again later'
        : by === 'new-address'
          ? 'Many failed sign-ins to this account: from an address it has not signed in from, wait before each attempt'
          : 'Too many failed sign-ins; wait before the next attempt',
      by === 'account'
        ? { retryAfterSeconds, lockedBy: 'account' }
        : { retryAfterSeconds, delayed: true, ...(by === 'new-address' ? { slowedDown: 'new-address' } : {}) },
    );
  }
}

/** How long an address where an account signed in stays known to it. */
const KNOWN_SECONDS = 30 * 86400;

const digest = (login: string): string => createHash('sha256').update(login.trim().toLowerCase()).digest('base64url');

/**
 * The unit an address counts as: an IPv4 address, or the /64 network of an IPv6 one (one subscriber
 * line gets a whole /64: counting its addresses one by one would give a guesser 2^64 fresh ones).
 */
function addressUnit(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const a = ipaddr.parse(ip);
  if (a.kind() === 'ipv4') return a.toString();
  const v6 = a as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

/** Bumped by a password reset: forgets the pairs and the known addresses. */
const generationKey = (acct: string): string => `gw:login-gen:${acct}`;
/** Bumped by an administrator's unlock: forgets the pairs (their failures, waits and locks), keeps the known addresses. */
const pairGenerationKey = (acct: string): string => `gw:login-pgen:${acct}`;
const pairKey = (acct: string, gen: string, ip: string): string => `${acct}:${gen}:${ip}`;
const waitKey = (acct: string, gen: string, ip: string): string => `gw:login-wait:${acct}:${gen}:${ip}`;
/** When a slowed-down new address may next try this account. */
const slowKey = (acct: string, gen: string, ip: string): string => `gw:login-slow:${acct}:${gen}:${ip}`;
const knownKey = (acct: string, gen: string, ip: string): string => `gw:login-known:${acct}:${gen}:${ip}`;
/** Set by an administrator's unlock for lockoutSeconds: the account's new addresses are not slowed down. */
const liftedKey = (acct: string): string => `gw:login-lifted:${acct}`;

/**
 * Sign-in throttling that a third party cannot turn against a user, with counters in the shared
 * cache (Redis: they survive restarts and hold across gateway instances). `login` is the account's
 * canonical name (its email when the account exists, so signing in by login name or email counts
 * alike; an account that does not exist is counted the same way, so the answers tell nothing).
 * Failures count per account and address (an IPv4 address, an IPv6 /64):
 * - backoff: after the n-th failure of a pair (n ≥ 2: a first typo costs nothing) the pair waits
 *   delaySeconds·2^(n-2) (429 with Retry-After, the password not even checked) before its next attempt;
 * - maxPerAccount failures lock the pair (429 for lockoutSeconds, even with the right password),
 *   and nowhere else: the guesser's own address for that account;
 * - never a lock wider than a pair. While an account fails maxPerAccountAll times from everywhere,
 *   or an address fails maxPerIp times across accounts, an address the account never signed in
 *   from (known: 30 days) is slowed down instead: it waits newAddressDelaySeconds before each
 *   attempt, its first included. A guesser rotating addresses pays that wait for every new one;
 *   the real user on a new network waits it once and signs in; from a known address, nothing.
 * The right password (with a second factor where the account has one) clears the pair and makes
 * the address known; an administrator's unlock and a password reset forget the pairs.
 * The failure counts (per pair, per account, per address) and the pair's lock are
 * rate-limiter-flexible counters in Redis or memory, as the cache adapter chose (login-counters.ts):
 * they last lockoutSeconds by the store's clock. The backoff waits and the new-address slowdown are
 * instants of `now` (the service clock) kept in the cache, whose expiry only collects the keys.
 */
export function loginThrottle(cache: Cache, s: ThrottleSettings, now: () => Date = () => new Date()) {
  const maxAll = s.maxPerAccountAll ?? s.maxPerAccount * 10;
  const delaySeconds = s.delaySeconds ?? 1;
  const newAddressDelay = s.newAddressDelaySeconds ?? 30;
  const refuse = (by: RefusedBy, retryAfterSeconds = s.lockoutSeconds) => {
    refusals.inc({ by });
    return new SignInRefused(by, retryAfterSeconds);
  };
  const pairs = failureCounter(cache, 'pair', s.maxPerAccount, s.lockoutSeconds);
  const accounts = failureCounter(cache, 'acct', maxAll, s.lockoutSeconds);
  const addresses = failureCounter(cache, 'ip', s.maxPerIp, s.lockoutSeconds);
  /** The reset generation, and the pair generation within it. */
  async function generations(acct: string): Promise<{ gen: string; pair: string }> {
    const [gen, pgen] = await cache.mget([generationKey(acct), pairGenerationKey(acct)]);
    return { gen: gen ?? '0', pair: `${gen ?? '0'}.${pgen ?? '0'}` };
  }
  return {
    settings: s,
    /** Throws SignInRefused while the pair waits after a failure, a slowed-down new address waits, or the pair's lock holds. */
    async check(login: string, ip: string): Promise<void> {
      const acct = digest(login);
      const unit = addressUnit(ip);
      const g = await generations(acct);
      const [pair, all, addr, [wait, known, lifted, slow]] = await Promise.all([
        failuresOf(pairs, pairKey(acct, g.pair, unit)),
        failuresOf(accounts, acct),
        failuresOf(addresses, unit),
        cache.mget([waitKey(acct, g.pair, unit), knownKey(acct, g.gen, unit), liftedKey(acct), slowKey(acct, g.pair, unit)]),
      ]);
      if (pair.count >= s.maxPerAccount) throw refuse('account', pair.seconds);
      const t = now().getTime();
      const waitMs = Number(wait ?? 0) - t;
      if (waitMs > 0) throw refuse('delay', Math.ceil(waitMs / 1000));
      if (known || lifted || newAddressDelay === 0) return;
      if (all.count < maxAll && addr.count < s.maxPerIp) return;
      // a new address while the account or the address is being guessed at: one attempt per newAddressDelay
      const next = Number(slow ?? 0);
      if (next > t) throw refuse('new-address', Math.ceil((next - t) / 1000));
      await cache.set(slowKey(acct, g.pair, unit), String(t + newAddressDelay * 1000), newAddressDelay + s.lockoutSeconds);
      if (next === 0) throw refuse('new-address', newAddressDelay);
    },
    async failed(login: string, ip: string): Promise<void> {
      const acct = digest(login);
      const unit = addressUnit(ip);
      const g = await generations(acct);
      const key = pairKey(acct, g.pair, unit);
      const [{ consumedPoints: n }] = await Promise.all([pairs.penalty(key), accounts.penalty(acct), addresses.penalty(unit)]);
      // the lock lasts lockoutSeconds from the failure that set it, not from the pair's first failure
      if (n === s.maxPerAccount) await pairs.block(key, s.lockoutSeconds);
      // the first failure costs nothing (a typo); each further one waits twice as long as the one before
      if (n >= 2 && n < s.maxPerAccount && delaySeconds > 0) {
        const wait = Math.min(delaySeconds * 2 ** (n - 2), s.lockoutSeconds);
        await cache.set(waitKey(acct, g.pair, unit), String(now().getTime() + wait * 1000), Math.ceil(wait) + 60);
      }
    },
    /** A right password (and second factor): the pair is cleared and the address known. Without an address (a reset): every pair and known address forgotten. */
    async succeeded(login: string, ip?: string): Promise<void> {
      const acct = digest(login);
      if (ip === undefined) {
        await cache.incr(generationKey(acct));
        await accounts.delete(acct);
        return;
      }
      const unit = addressUnit(ip);
      const g = await generations(acct);
      await Promise.all([pairs.delete(pairKey(acct, g.pair, unit)), cache.del(waitKey(acct, g.pair, unit), slowKey(acct, g.pair, unit))]);
      await cache.set(knownKey(acct, g.gen, unit), '1', KNOWN_SECONDS);
    },
    /**
     * An administrator lifts the account's locks and waits: every pair and the account-wide count
     * are forgotten (known addresses stay), and for lockoutSeconds its new addresses are not slowed
     * down by an address's failures with other accounts.
     */
    async unlock(login: string): Promise<void> {
      const acct = digest(login);
      await cache.incr(pairGenerationKey(acct));
      await accounts.delete(acct);
      await cache.set(liftedKey(acct), '1', s.lockoutSeconds);
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
