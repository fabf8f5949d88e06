import { createHash } from 'node:crypto';
import { AppError, counter, type Cache } from '@corridor/platform';

const lockouts = counter('gateway_login_lockouts_total', 'Sign-ins refused because an account or address is locked', ['by']);

export interface ThrottleSettings {
  maxPerAccount: number;
  maxPerIp: number;
  lockoutSeconds: number;
}

const accountKey = (login: string): string => `gw:login-fail:acct:${createHash('sha256').update(login.trim().toLowerCase()).digest('base64url')}`;
const ipKey = (ip: string): string => `gw:login-fail:ip:${ip}`;

/**
 * Sign-in throttling with counters in the cache: after maxPerAccount failures for one email or
 * login (known or not, so nothing is revealed), or maxPerIp from one address, sign-ins there are
 * refused with 429 for lockoutSeconds, even with the right password. Success clears the account.
 */
export function loginThrottle(cache: Cache, s: ThrottleSettings) {
  const locked = (by: 'account' | 'ip') => {
    lockouts.inc({ by });
    return new AppError('RATE_LIMITED', 'Too many failed sign-ins; try again later', { retryAfterSeconds: s.lockoutSeconds, lockedBy: by });
  };
  async function bump(key: string, max: number): Promise<void> {
    const n = await cache.incr(key, s.lockoutSeconds);
    // the lock lasts lockoutSeconds from the failure that set it, not from the first failure
    if (n === max) await cache.set(key, String(n), s.lockoutSeconds);
  }
  return {
    settings: s,
    async check(login: string, ip: string): Promise<void> {
      const [acct, addr] = await cache.mget([accountKey(login), ipKey(ip)]);
      if (Number(acct ?? 0) >= s.maxPerAccount) throw locked('account');
      if (Number(addr ?? 0) >= s.maxPerIp) throw locked('ip');
    },
    async failed(login: string, ip: string): Promise<void> {
      await Promise.all([bump(accountKey(login), s.maxPerAccount), bump(ipKey(ip), s.maxPerIp)]);
    },
    async succeeded(login: string): Promise<void> {
      await cache.del(accountKey(login));
    },
  };
}
export type LoginThrottle = ReturnType<typeof loginThrottle>;
