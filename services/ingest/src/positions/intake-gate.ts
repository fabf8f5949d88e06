import { counter, gauge } from '@corridor/platform';

const pendingGauge = gauge(
  'ingest_pending_fixes',
  'Fixes read from devices (frames, datagrams, HTTP requests) and not yet confirmed by the bus',
);
const limitGauge = gauge(
  'ingest_pending_limit',
  'Fixes ingest admits at once: the measured publish rate times ACK_DELAY_TARGET_MS, within its bounds',
);
const refusedHttp = counter(
  'ingest_overload_refusals_total',
  'HTTP requests answered 503 and UDP datagrams dropped because the pending limit was reached',
  ['transport'],
);

export interface IntakeGateOptions {
  /** Upper bound on fixes admitted and not yet published, whatever the rate (MAX_PENDING_FIXES). */
  maxPending: number;
  /** Lower bound on the limit, so a slow start or a slow spell does not starve intake. */
  minPending: number;
  /** How long an admitted fix should wait for its ack at most (ACK_DELAY_TARGET_MS). */
  targetDelayMs: number;
  now?: () => number;
}

/** How often the publish rate is measured (ms). */
const WINDOW_MS = 1000;

/**
 * One budget for everything ingest has read and not yet published, across every device port and
 * the HTTP position APIs, so that ack latency stays bounded when publishing falls behind instead
 * of fixes piling up. Its limit follows the publish rate (Little's law: a fix admitted behind
 * `limit` others waits about limit / rate): each second the rate of fixes confirmed while work was
 * pending is measured, and the limit becomes rate × targetDelayMs (bounded by minPending and
 * maxPending). TCP connections that find no room keep their frames unread and stop reading
 * (socket.pause) until room frees up, oldest waiter first; HTTP gets 503 with Retry-After; UDP
 * datagrams are dropped unacknowledged (the device repeats them).
 */
export class IntakeGate {
  private pending = 0;
  private currentLimit: number;
  private rate: number | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly now: () => number;
  private windowStart: number;
  private windowReleased = 0;
  private busySince: number | undefined;
  private busyMs = 0;

  constructor(private readonly opts: IntakeGateOptions) {
    this.now = opts.now ?? (() => performance.now());
    this.windowStart = this.now();
    this.currentLimit = Math.min(opts.maxPending, Math.max(opts.minPending, 2 * opts.minPending));
    limitGauge.set(this.currentLimit);
  }

  get limit(): number {
    return this.currentLimit;
  }

  get pendingFixes(): number {
    return this.pending;
  }

  /** Publish rate measured while work was pending (fixes/s), once known. */
  get publishRate(): number | undefined {
    return this.rate;
  }

  get hasRoom(): boolean {
    return this.pending < this.currentLimit;
  }

  /** Counts fixes already read (a TCP frame is taken whole even when it overshoots the limit). */
  admit(fixes: number): void {
    if (this.pending === 0) this.busySince = this.now();
    this.pending += fixes;
    pendingGauge.set(this.pending);
  }

  /** Admits when there is room (HTTP, UDP); false = refuse the request or drop the datagram. */
  tryAdmit(fixes: number, transport: 'http' | 'udp'): boolean {
    if (!this.hasRoom) {
      refusedHttp.inc({ transport });
      return false;
    }
    this.admit(fixes);
    return true;
  }

  /** The fixes of a frame or request are published (or given up); wakes waiters while there is room. */
  release(fixes: number): void {
    this.pending = Math.max(0, this.pending - fixes);
    pendingGauge.set(this.pending);
    this.windowReleased += fixes;
    const now = this.now();
    if (this.pending === 0 && this.busySince !== undefined) {
      this.busyMs += now - this.busySince;
      this.busySince = undefined;
    }
    if (now - this.windowStart >= WINDOW_MS) this.measure(now);
    this.wakeWaiters();
  }

  /** Seconds an HTTP client should wait before retrying: about the time to publish what is pending. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.min(30, Math.ceil(this.pending / Math.max(1, this.rate ?? this.opts.minPending))));
  }

  /** Called (once) when room frees up; the waiter admits what it holds at once. */
  wait(wake: () => void): void {
    this.waiters.add(wake);
  }

  cancel(wake: () => void): void {
    this.waiters.delete(wake);
  }

  private wakeWaiters(): void {
    // each waiter is visited at most once per call (one that still holds frames waits again at the end)
    let visits = this.waiters.size;
    for (const wake of this.waiters) {
      if (!this.hasRoom || visits-- <= 0) return;
      this.waiters.delete(wake);
      wake();
    }
  }

  private measure(now: number): void {
    if (this.busySince !== undefined) {
      this.busyMs += now - this.busySince;
      this.busySince = now;
    }
    if (this.busyMs >= WINDOW_MS / 10) {
      const sample = (this.windowReleased * 1000) / this.busyMs;
      this.rate = this.rate === undefined ? sample : 0.7 * this.rate + 0.3 * sample;
      const { minPending, maxPending, targetDelayMs } = this.opts;
      this.currentLimit = Math.round(Math.min(maxPending, Math.max(minPending, (this.rate * targetDelayMs) / 1000)));
      limitGauge.set(this.currentLimit);
    }
    this.windowStart = now;
    this.windowReleased = 0;
    this.busyMs = 0;
  }
}
