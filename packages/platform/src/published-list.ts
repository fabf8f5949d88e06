import type { z } from 'zod';
import type { Cache } from './adapters/cache';
import type { Logger } from './logger';

export interface PublishedListOptions<T> {
  cache: Cache;
  logger: Logger;
  /** The cache key the owning service writes the whole list under (see cache-keys.ts). */
  key: string;
  /** What the list holds, for log lines ("calendars", "computed attributes"). */
  what: string;
  schema: z.ZodType<T[]>;
  /** Called with each new list (not when the cached text is unchanged). */
  apply: (list: T[]) => void;
  /**
   * A missing key: 'empty' applies an empty list (nothing published yet means nothing defined);
   * 'keep' keeps the list last read (the cache lost the key; do not drop everything at once).
   */
  whenMissing: 'empty' | 'keep';
  /** Called when the list is missing (with 'keep') or malformed, for the reader's own counter. */
  onProblem?: (kind: 'missing' | 'malformed') => void;
  reloadMs?: number;
  now?: () => number;
}

/**
 * The reading side of a list another service publishes whole under one cache key (ops-api's
 * computed attributes for ingest, its calendars for the geofence evaluator): re-read at most every
 * `reloadMs` (so a change takes effect within that, without a restart), applied only when the text
 * changed, validated with its schema. A cache failure or a malformed list keeps the list in effect.
 */
export class PublishedList<T> {
  private lastRaw: string | null = null;
  private loadedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<void> | undefined;
  private readonly reloadMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: PublishedListOptions<T>) {
    this.reloadMs = opts.reloadMs ?? 5000;
    this.now = opts.now ?? Date.now;
  }

  /** Re-reads the list when the last read is older than reloadMs; concurrent callers share one read. */
  async refresh(): Promise<void> {
    if (this.loading) return this.loading;
    if (this.now() - this.loadedAt < this.reloadMs) return;
    this.loadedAt = this.now();
    this.loading = this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const { cache, logger, key, what } = this.opts;
    let raw: string | null;
    try {
      raw = await cache.get(key);
    } catch (err) {
      logger.warn({ err }, `${what} not reloaded: cache unavailable`);
      return;
    }
    if (raw === this.lastRaw) return;
    this.lastRaw = raw;
    if (raw === null) {
      if (this.opts.whenMissing === 'empty') return this.opts.apply([]);
      this.opts.onProblem?.('missing');
      logger.warn({ key }, `no ${what} in the cache (their owner publishes them at start); keeping the ones last read`);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      json = undefined;
    }
    const parsed = this.opts.schema.safeParse(json);
    if (!parsed.success) {
      this.opts.onProblem?.('malformed');
      logger.warn({ key }, `${what} in the cache are malformed; keeping the ones last read`);
      return;
    }
    this.opts.apply(parsed.data);
  }
}
