import { randomUUID } from 'node:crypto';
import type { Cache } from './adapters/cache';
import { unavailable } from './errors';

/**
 * Short exclusive sections over the shared cache (SET NX with a TTL), one key per id: a consumer
 * and a timer (or two instances during a rebalance) that write the same state take its lock first.
 * A lock left by a crashed holder expires after `ttlSeconds`.
 */
export class CacheLocks {
  private readonly token = randomUUID();

  constructor(
    private readonly cache: Cache,
    private readonly keyOf: (id: number) => string,
    private readonly ttlSeconds = 30,
  ) {}

  /** Locks every id, waiting up to `waitMs` for locks held elsewhere; throws a retryable error after that. */
  async lockAll(ids: number[], waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    let pending = [...new Set(ids)];
    const held: number[] = [];
    for (;;) {
      let got: boolean[];
      try {
        got = await Promise.all(pending.map((id) => this.cache.setIfAbsent(this.keyOf(id), this.token, this.ttlSeconds)));
      } catch (err) {
        await this.unlock(held).catch(() => undefined);
        throw unavailable('cache', err);
      }
      held.push(...pending.filter((_, i) => got[i]));
      pending = pending.filter((_, i) => !got[i]);
      if (!pending.length) return;
      if (Date.now() > deadline) {
        await this.unlock(held);
        throw unavailable(`locks of ${pending.slice(0, 5).join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** One id, without waiting: false when someone else holds it. */
  tryLock(id: number): Promise<boolean> {
    return this.cache.setIfAbsent(this.keyOf(id), this.token, this.ttlSeconds);
  }

  async unlock(ids: number[]): Promise<void> {
    if (ids.length) await this.cache.del(...ids.map(this.keyOf));
  }
}
