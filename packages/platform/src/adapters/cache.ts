/** Hot state and lookups: Redis in production, an in-memory map by default. Values are strings. */
export interface Cache {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  mget(keys: string[]): Promise<(string | null)[]>;
  set(key: string, value: string, ttlSeconds?: number): Promise<void>;
  /** Sets only if absent; true when it set (idempotency keys, locks). */
  setIfAbsent(key: string, value: string, ttlSeconds?: number): Promise<boolean>;
  /**
   * Sets `key` to the JSON object `value` unless the JSON object stored there has a number at
   * `rankField` that is at least `rank` — one atomic step (a Lua script in Redis), so writers on
   * several instances cannot put an older value over a newer one. True when it set.
   */
  setJsonIfHigher(key: string, value: string, rankField: string, rank: number): Promise<boolean>;
  del(...keys: string[]): Promise<number>;
  incr(key: string, ttlSeconds?: number): Promise<number>;
  hset(key: string, values: Record<string, string>): Promise<void>;
  hget(key: string, field: string): Promise<string | null>;
  hgetall(key: string): Promise<Record<string, string>>;
  hdel(key: string, ...fields: string[]): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export async function getJson<T>(cache: Cache, key: string): Promise<T | undefined> {
  const v = await cache.get(key);
  return v === null ? undefined : (JSON.parse(v) as T);
}
