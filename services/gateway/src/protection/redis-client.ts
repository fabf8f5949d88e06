import type { Redis } from 'ioredis';
import type { Cache } from '@corridor/platform';

/** The ioredis client behind the cache when it is Redis (RedisCache exposes it), else undefined. */
export function redisOf(cache: Cache): Redis | undefined {
  return cache.kind === 'redis' ? (cache as Cache & { redis?: Redis }).redis : undefined;
}
