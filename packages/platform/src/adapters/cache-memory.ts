import type { Cache } from './cache';

interface Entry {
  value: string | Map<string, string>;
  expiresAt: number | undefined;
}

/** The number at `field` of a stored JSON object; -Infinity when there is none (no value, not JSON, not a number). */
function storedRank(stored: string | null, field: string): number {
  if (stored === null) return -Infinity;
  try {
    const v = (JSON.parse(stored) as Record<string, unknown> | null)?.[field];
    return typeof v === 'number' ? v : -Infinity;
  } catch {
    return -Infinity;
  }
}

/** In-process implementation of the Cache interface, with TTLs checked on read. */
export class MemoryCache implements Cache {
  readonly kind = 'memory' as const;
  private readonly store = new Map<string, Entry>();
  private readonly writeWatchers = new Set<(key: string) => void>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * Calls `listener` with each key a write changed (set, del, incr, a hash's fields), synchronously
   * inside the write: how the thread bridge tells a worker thread that a key it mirrors changed.
   * Returns the function that stops it.
   */
  watchWrites(listener: (key: string) => void): () => void {
    this.writeWatchers.add(listener);
    return () => this.writeWatchers.delete(listener);
  }

  /** When each key expires (ms since the epoch), undefined for none or no key: a mirror's copy expires with it. */
  expiries(keys: string[]): (number | undefined)[] {
    return keys.map((k) => this.live(k)?.expiresAt);
  }

  /** Every live string value whose key starts with `prefix`, and when it expires: a thread's whole copy of those keys (thread-bridge.ts). */
  entriesWithPrefix(prefix: string): { key: string; value: string; expiresAt: number | undefined }[] {
    const out: { key: string; value: string; expiresAt: number | undefined }[] = [];
    for (const key of this.store.keys()) {
      if (!key.startsWith(prefix)) continue;
      const e = this.live(key);
      if (e && typeof e.value === 'string') out.push({ key, value: e.value, expiresAt: e.expiresAt });
    }
    return out;
  }

  private wrote(key: string): void {
    for (const w of this.writeWatchers) w(key);
  }

  private live(key: string): Entry | undefined {
    const e = this.store.get(key);
    if (e && e.expiresAt !== undefined && e.expiresAt <= this.now()) {
      this.store.delete(key);
      return undefined;
    }
    return e;
  }

  private expiry(ttlSeconds?: number): number | undefined {
    return ttlSeconds ? this.now() + ttlSeconds * 1000 : undefined;
  }

  private str(key: string): string | null {
    const e = this.live(key);
    if (!e) return null;
    if (typeof e.value !== 'string') throw new Error(`WRONGTYPE ${key} holds a hash`);
    return e.value;
  }

  private hash(key: string, create: boolean): Map<string, string> | undefined {
    const e = this.live(key);
    if (e && typeof e.value === 'string') throw new Error(`WRONGTYPE ${key} holds a string`);
    if (e) return e.value as Map<string, string>;
    if (!create) return undefined;
    const m = new Map<string, string>();
    this.store.set(key, { value: m, expiresAt: undefined });
    return m;
  }

  async get(key: string) {
    return this.str(key);
  }
  async mget(keys: string[]) {
    return keys.map((k) => this.str(k));
  }
  async set(key: string, value: string, ttlSeconds?: number) {
    this.store.set(key, { value, expiresAt: this.expiry(ttlSeconds) });
    this.wrote(key);
  }
  async setIfAbsent(key: string, value: string, ttlSeconds?: number) {
    if (this.live(key)) return false;
    this.store.set(key, { value, expiresAt: this.expiry(ttlSeconds) });
    this.wrote(key);
    return true;
  }
  async setJsonIfHigher(key: string, value: string, rankField: string, rank: number) {
    if (storedRank(this.str(key), rankField) >= rank) return false;
    this.store.set(key, { value, expiresAt: undefined });
    this.wrote(key);
    return true;
  }
  async del(...keys: string[]) {
    let n = 0;
    for (const k of keys)
      if (this.live(k) && this.store.delete(k)) {
        n++;
        this.wrote(k);
      }
    return n;
  }
  async incr(key: string, ttlSeconds?: number) {
    const current = this.str(key);
    const next = (current === null ? 0 : Number(current)) + 1;
    if (Number.isNaN(next)) throw new Error(`ERR value at ${key} is not an integer`);
    const e = this.live(key);
    this.store.set(key, { value: String(next), expiresAt: e?.expiresAt ?? this.expiry(ttlSeconds) });
    this.wrote(key);
    return next;
  }
  async hset(key: string, values: Record<string, string>) {
    const h = this.hash(key, true)!;
    for (const [f, v] of Object.entries(values)) h.set(f, v);
    this.wrote(key);
  }
  async hget(key: string, field: string) {
    return this.hash(key, false)?.get(field) ?? null;
  }
  async hgetall(key: string) {
    return Object.fromEntries(this.hash(key, false) ?? []);
  }
  async hdel(key: string, ...fields: string[]) {
    const h = this.hash(key, false);
    if (!h) return 0;
    let n = 0;
    for (const f of fields) if (h.delete(f)) n++;
    if (h.size === 0) this.store.delete(key);
    if (n) this.wrote(key);
    return n;
  }
  async ping() {}
  async close() {
    this.store.clear();
    this.writeWatchers.clear();
  }
}
