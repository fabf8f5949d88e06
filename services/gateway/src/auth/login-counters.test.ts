import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryCache, RedisCache, type Cache } from '@corridor/platform';
import { realPart } from '@corridor/platform/testing/real-parts';
import { failureCounter, failuresOf } from './login-counters';

/**
 * The sign-in throttle's failure counters (rate-limiter-flexible) in the store the cache adapter
 * chose: memory always, real Redis when REDIS_URL is set (always in CI).
 */
const redis = await realPart('redis');
const prefix = `t${randomUUID().slice(0, 8)}:`;
const caches: [string, Cache][] = [
  ['memory', new MemoryCache()],
  ...(redis ? [['redis', new RedisCache(redis.url, { keyPrefix: prefix })] as [string, Cache]] : []),
];
afterAll(async () => {
  await Promise.all(caches.map(([, c]) => c.close()));
});

describe.each(caches)('failure counters on the %s cache', (kind, cache) => {
  it('counts per key, blocks for the given time, forgets on delete, and is shared by every throttle on the same cache', async () => {
    const a = failureCounter(cache, 'pair', 3, 60);
    expect(await failuresOf(a, 'k1')).toEqual({ count: 0, seconds: 0 });
    await a.penalty('k1');
    const two = await a.penalty('k1');
    expect(two.consumedPoints).toBe(2);
    // a second gateway on the same cache (a restart, another instance) sees the same counts
    const b = failureCounter(cache, 'pair', 3, 60);
    expect((await failuresOf(b, 'k1')).count).toBe(2);
    expect((await failuresOf(b, 'k2')).count).toBe(0);
    await b.block('k1', 600);
    const locked = await failuresOf(a, 'k1');
    expect(locked.count).toBeGreaterThanOrEqual(3);
    expect(locked.seconds).toBeGreaterThan(590);
    expect(locked.seconds).toBeLessThanOrEqual(600);
    await a.delete('k1');
    expect((await failuresOf(b, 'k1')).count).toBe(0);
    if (kind === 'redis') {
      // the count and its expiry are set in one step: a counted key always expires
      await a.penalty('k3');
      const ttl = await (cache as RedisCache).redis.pttl('gw:login-fail:pair:k3');
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
  });
});
