import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Cache } from '@corridor/platform';
import { redisOf } from '../protection/redis-client';

/** Memory counters live as long as the memory cache they stand beside: a gateway started afresh on the same cache sees them, as it would in Redis. */
const memoryCounters = new WeakMap<Cache, Map<string, RateLimiterMemory>>();

/**
 * A counter of failed sign-ins with rate-limiter-flexible, in the store the cache adapter chose:
 * Redis when the cache is Redis (the count and its expiry set in one Lua step, so a key can never
 * be left without its expiry; every gateway instance shares it), memory otherwise. `points` is
 * the count at which the throttle acts, `seconds` how long a count lives from its first failure.
 * Its time is the store's own (Redis's expiry), not the service clock.
 */
export function failureCounter(cache: Cache, name: string, points: number, seconds: number): RateLimiterAbstract {
  const keyPrefix = `gw:login-fail:${name}`;
  const redis = redisOf(cache);
  if (redis) return new RateLimiterRedis({ storeClient: redis, keyPrefix, points, duration: seconds });
  let byName = memoryCounters.get(cache);
  if (!byName) memoryCounters.set(cache, (byName = new Map()));
  const id = `${keyPrefix}:${points}:${seconds}`;
  let counter = byName.get(id);
  if (!counter) byName.set(id, (counter = new RateLimiterMemory({ keyPrefix, points, duration: seconds })));
  return counter;
}

/** The failures a counter holds for a key (0 when none), and for how many more seconds it holds them. */
export async function failuresOf(counter: RateLimiterAbstract, key: string): Promise<{ count: number; seconds: number }> {
  const r = await counter.get(key);
  return r ? { count: r.consumedPoints, seconds: Math.max(1, Math.ceil(r.msBeforeNext / 1000)) } : { count: 0, seconds: 0 };
}
