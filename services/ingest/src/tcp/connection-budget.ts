import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { gauge, type Logger } from '@corridor/platform';
import { frameMetrics } from '../frames/frame-metrics';

const refused = frameMetrics.connectionsRefused;
const budgetGauge = gauge(
  'ingest_connection_budget',
  'Device connections (TCP ports and OsmAnd HTTP) the open-file limit leaves room for, after the reserve',
);
const inUse = gauge('ingest_connection_budget_used', 'Device connections open against the open-file budget');

/** The soft RLIMIT_NOFILE of this process: /proc/self/limits, else `ulimit -n`; undefined when unlimited or unknown. */
export function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.split(/\s{2,}/)[1];
    if (soft) return soft === 'unlimited' ? undefined : Number(soft);
  } catch {
    // not Linux
  }
  try {
    const out = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    return out === 'unlimited' ? undefined : Number(out) || undefined;
  } catch {
    return undefined;
  }
}

/** Files this process has open now (Linux), undefined elsewhere. */
export function openFiles(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

export interface ConnectionBudgetOptions {
  /** The soft open-file limit (default: read from the process). */
  limit?: number | undefined;
  /**
   * Files kept for everything but device connections: the API and metrics listeners and their
   * clients, the stores' connections and files, the logs. Default: what is open when the budget is
   * made (the stores are connected by then) plus 10 % of the limit, at least 64 more.
   */
  reserve?: number | undefined;
  logger: Logger;
}

/** How often a refusal is logged at most (the count in between is in the next line). */
const LOG_EVERY_MS = 10_000;

/**
 * One budget of device connections for the whole process, derived from its open-file limit: every
 * TCP device port and the OsmAnd HTTP port take from it at accept, and a connection past it is
 * closed at once, counted (`ingest_connections_refused_total{reason="fd_budget"}`) and logged (at
 * most every 10 s), so that the process never runs out of files: the API, /metrics and the stores
 * keep working with every device port full. Per-server caps (MAX_CONNECTIONS) apply as well.
 */
export class ConnectionBudget {
  private sized: { limit: number | undefined; reserve: number; max: number } | undefined;
  private used = 0;
  private refusedSinceLog = 0;
  private lastLog = 0;

  constructor(private readonly opts: ConnectionBudgetOptions) {}

  /**
   * The limit, the reserve and the budget, worked out at the first connection (the stores are
   * connected and the listeners open by then, so the files they hold are counted in the reserve).
   */
  get size(): { limit: number | undefined; reserve: number; max: number } {
    if (!this.sized) {
      const limit = 'limit' in this.opts ? this.opts.limit : openFileLimit();
      const headroom = limit === undefined ? 0 : Math.max(64, Math.round(limit / 10));
      const reserve = this.opts.reserve ?? (openFiles() ?? 64) + headroom;
      const max = limit === undefined ? Number.MAX_SAFE_INTEGER : Math.max(0, limit - reserve);
      this.sized = { limit, reserve, max };
      budgetGauge.set(limit === undefined ? -1 : max);
      this.opts.logger.info(
        { openFileLimit: limit ?? 'unlimited', reserve, deviceConnections: limit === undefined ? 'unbounded' : max },
        'device connection budget',
      );
    }
    return this.sized;
  }

  get open(): number {
    return this.used;
  }

  /** Takes one connection's file; false when the budget is spent (the caller closes it at once). */
  take(protocol: string): boolean {
    const { max, limit } = this.size;
    if (this.used >= max) {
      refused.inc({ protocol, reason: 'fd_budget' });
      this.refusedSinceLog++;
      const now = Date.now();
      if (now - this.lastLog >= LOG_EVERY_MS) {
        this.opts.logger.warn(
          { protocol, refused: this.refusedSinceLog, open: this.used, budget: max, openFileLimit: limit },
          'device connections refused: the open-file budget is spent',
        );
        this.lastLog = now;
        this.refusedSinceLog = 0;
      }
      return false;
    }
    this.used++;
    inUse.set(this.used);
    return true;
  }

  release(): void {
    this.used = Math.max(0, this.used - 1);
    inUse.set(this.used);
  }
}
