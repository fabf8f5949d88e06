import { Redis } from 'ioredis';
import type { Cache } from './cache';
import type { RedisTarget } from './store-connections';

/** setJsonIfHigher in one step: compares the stored JSON object's rank field and sets only when the new rank is higher. */
const SET_JSON_IF_HIGHER = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local ok, obj = pcall(cjson.decode, cur)
  if ok and type(obj) == 'table' and type(obj[ARGV[2]]) == 'number' and obj[ARGV[2]] >= tonumber(ARGV[3]) then return 0 end
end
redis.call('SET', KEYS[1], ARGV[1])
return 1
`;

/**
 * Redis through ioredis. Commands fail fast when Redis is down (no unbounded offline queue).
 * Commands issued in the same tick go out in one write (ioredis auto-pipelining, in order): ingest
 * reads and writes a track state per frame, and one socket write per command cost more CPU than the
 * commands (bench/results/ingest-capacity.json).
 */
export class RedisCache implements Cache {
  readonly kind = 'redis' as const;
  readonly redis: Redis;

  /** A URL, or a target from redisTarget() (a URL or sentinels); keyPrefix isolates tests sharing one Redis. */
  constructor(target: string | RedisTarget, opts: { keyPrefix?: string } = {}) {
    const t = typeof target === 'string' ? { url: target, options: {} } : target;
    const options = {
      ...t.options,
      enableAutoPipelining: true,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      connectTimeout: 3000,
      lazyConnect: false,
      keyPrefix: opts.keyPrefix,
    };
    this.redis = 'url' in t ? new Redis(t.url, options) : new Redis(options);
    // connection errors surface on commands; an 'error' event must not crash the process
    this.redis.on('error', () => undefined);
  }

  async get(key: string) {
    return this.redis.get(key);
  }
  async mget(keys: string[]) {
    return keys.length ? this.redis.mget(...keys) : [];
  }
  async set(key: string, value: string, ttlSeconds?: number) {
    if (ttlSeconds) await this.redis.set(key, value, 'EX', ttlSeconds);
    else await this.redis.set(key, value);
  }
  async setIfAbsent(key: string, value: string, ttlSeconds?: number) {
    const r = ttlSeconds ? await this.redis.set(key, value, 'EX', ttlSeconds, 'NX') : await this.redis.set(key, value, 'NX');
    return r === 'OK';
  }
  async setJsonIfHigher(key: string, value: string, rankField: string, rank: number) {
    // ioredis prefixes KEYS of an EVAL like any other key (keyPrefix)
    return (await this.redis.eval(SET_JSON_IF_HIGHER, 1, key, value, rankField, String(rank))) === 1;
  }
  async del(...keys: string[]) {
    return keys.length ? this.redis.del(...keys) : 0;
  }
  async incr(key: string, ttlSeconds?: number) {
    const n = await this.redis.incr(key);
    if (n === 1 && ttlSeconds) await this.redis.expire(key, ttlSeconds);
    return n;
  }
  async hset(key: string, values: Record<string, string>) {
    if (Object.keys(values).length) await this.redis.hset(key, values);
  }
  async hget(key: string, field: string) {
    return this.redis.hget(key, field);
  }
  async hgetall(key: string) {
    return this.redis.hgetall(key);
  }
  async hdel(key: string, ...fields: string[]) {
    return fields.length ? this.redis.hdel(key, ...fields) : 0;
  }
  async ping() {
    await this.redis.ping();
  }
  async close() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
