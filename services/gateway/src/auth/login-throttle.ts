import { createHash } from 'node:crypto';
import { AppError, counter, type Cache } from '@corridor/platform';

const lockouts = counter('gateway_login_lockouts_total', 'Sign-ins refused because an account or address is locked', ['by']);

export interface ThrottleSettings {
  /** Failures of one account from one address before that pair is locked. */
  maxPerAccount: number;
  /** Failures from one address (any accounts) before it is locked for accounts never signed in from it. */
  maxPerIp: number;
  /** Failures of one account from all addresses before it is locked for addresses it never signed in from. */
  maxPerAccountAll?: number;
  lockoutSeconds: number;
}

/** How long an address where an account signed in stays known to it. */
const KNOWN_SECONDS = 30 * 86400;

const digest = (login: string): string => createHash('sha256').update(login.trim().toLowerCase()).digest('base64url');
const accountKey = (acct: string): string => `gw:login-fail:acct:${acct}`;
const generationKey = (acct: string): string => `gw:login-gen:${acct}`;
const pairKey = (acct: string, gen: string, ip: string): string => `gw:login-fail:pair:${acct}:${gen}:${ip}`;
const knownKey = (acct: string, gen: string, ip: string): string => `gw:login-known:${acct}:${gen}:${ip}`;
const ipKey = (ip: string): string => `gw:login-fail:ip:${ip}`;

/**
 * Sign-in throttling with counters in the shared cache (Redis: they survive restarts and hold
 * across gateway instances). Failures count per account and address: maxPerAccount wrong passwords
 * from one address lock that account there (429 for lockoutSeconds, even with the right password),
 * and nowhere else, so an attacker cannot lock the real user out by guessing. An address where the
 * account signed in before (known, 30 days) is never refused for the failures of other addresses:
 * an account failing maxPerAccountAll times from everywhere is locked only for unknown addresses,
 * and an address failing maxPerIp times across accounts only for accounts unknown there. A password
 * reset (succeeded without an address) forgets every pair of the account.
 */
export function loginThrottle(cache: Cache, s: ThrottleSettings) {
  const maxAll = s.maxPerAccountAll ?? s.maxPerAccount * 10;
  const locked = (by: 'account' | 'account-wide' | 'ip') => {
    lockouts.inc({ by });
    return new AppError('RATE_LIMITED', 'Too many failed sign-ins; try again later', { retryAfterSeconds: s.lockoutSeconds, lockedBy: by });
  };
  async function bump(key: string, max: number): Promise<void> {
    const n = await cache.incr(key, s.lockoutSeconds);
    // the lock lasts lockoutSeconds from the failure that set it, not from the first failure
    if (n === max) await cache.set(key, String(n), s.lockoutSeconds);
  }
  const generation = async (acct: string): Promise<string> => (await cache.get(generationKey(acct))) ?? '0';
  return {
    settings: s,
    async check(login: string, ip: string): Promise<void> {
      const acct = digest(login);
      const gen = await generation(acct);
      const [pair, all, addr, known] = await cache.mget([pairKey(acct, gen, ip), accountKey(acct), ipKey(ip), knownKey(acct, gen, ip)]);
      if (Number(pair ?? 0) >= s.maxPerAccount) throw locked('account');
      if (known) return;
      if (Number(all ?? 0) >= maxAll) throw locked('account-wide');
      if (Number(addr ?? 0) >= s.maxPerIp) throw locked('ip');
    },
    async failed(login: string, ip: string): Promise<void> {
      const acct = digest(login);
      const gen = await generation(acct);
      await Promise.all([bump(pairKey(acct, gen, ip), s.maxPerAccount), bump(accountKey(acct), maxAll), bump(ipKey(ip), s.maxPerIp)]);
    },
    /** A right password (and second factor): the pair is cleared and the address known. Without an address (a reset): every pair forgotten. */
    async succeeded(login: string, ip?: string): Promise<void> {
      const acct = digest(login);
      if (ip === undefined) {
        await cache.incr(generationKey(acct));
        await cache.del(accountKey(acct));
        return;
      }
      const gen = await generation(acct);
      await cache.del(pairKey(acct, gen, ip));
      await cache.set(knownKey(acct, gen, ip), '1', KNOWN_SECONDS);
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
