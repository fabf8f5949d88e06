import { counter, histogram, rollUpObservatoryDays, utcDay, type Analytics, type Logger } from '@corridor/platform';
import type { ObservatoryFact } from './facts';

const rollups = counter('observatory_rollups_total', "Recomputations of the observatory's daily indicators", ['outcome']);
const rollupSeconds = histogram(
  'observatory_rollup_seconds',
  "Time to recompute the observatory's daily indicators of the days new facts touched",
  [],
  [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
);

/** The UTC day a fact counts on: a visit's exit, a leg's arrival, a stop's start, a distance's own day. */
function dayOf(f: ObservatoryFact): string {
  switch (f.kind) {
    case 'visit':
      return utcDay(f.exitedAt);
    case 'leg':
      return utcDay(f.arrivedAt);
    case 'stop':
      return utcDay(f.startedAt);
    case 'distance':
      return f.day;
  }
}

/**
 * Keeps the observatory's daily indicators current: the days that written facts touched are
 * recomputed from the facts (rollUpObservatoryDays), at most once every `intervalMs` (the first
 * after a quiet spell at once), so the API's figures trail the tracker by about that much and the
 * cost stays one recomputation of today per interval whatever the rate of fixes. A failed
 * recomputation keeps its days for the next (logged and counted).
 */
export class ObservatoryRollup {
  private readonly dirty = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private last = 0;
  private closed = false;

  constructor(private readonly deps: { analytics: Analytics; logger: Logger; intervalMs?: number }) {}

  /** The days of these facts need recomputing. */
  mark(facts: readonly ObservatoryFact[]): void {
    for (const f of facts) this.dirty.add(dayOf(f));
    this.schedule();
  }

  /** Recomputes every day marked so far, now, and resolves when done (a backfill's end, a test, closing). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    if (this.dirty.size) await this.run();
    // a failure left days behind: they wait for the next mark or flush
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.flush().catch(() => undefined);
  }

  private schedule(): void {
    if (this.timer || this.running || this.closed || !this.dirty.size) return;
    const wait = Math.max(0, this.last + (this.deps.intervalMs ?? 30_000) - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, wait);
  }

  private run(): Promise<void> {
    const days = [...this.dirty];
    this.dirty.clear();
    this.last = Date.now();
    const began = performance.now();
    this.running = rollUpObservatoryDays(this.deps.analytics, days)
      .then(() => {
        rollups.inc({ outcome: 'ok' });
        rollupSeconds.observe((performance.now() - began) / 1000);
      })
      .catch((err: unknown) => {
        for (const d of days) this.dirty.add(d);
        rollups.inc({ outcome: 'failed' });
        this.deps.logger.error({ err, days: days.length }, 'observatory daily indicators not recomputed: retried with the next facts');
      })
      .finally(() => {
        this.running = undefined;
        this.schedule();
      });
    return this.running;
  }
}
