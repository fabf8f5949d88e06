import { retryWithBackoff } from '@corridor/platform';
import { kphToKnots, type Fix, type Sender } from './truck';

/**
 * OsmAnd protocol over HTTP, as Traccar's OsmAndProtocolDecoder reads it: query parameters
 * id, lat, lon, timestamp (epoch seconds), speed (knots), bearing, altitude, accuracy, batt
 * (parameter list from the Traccar client documentation, traccar.org/osmand).
 */
const PROTOCOL = 'osmand';

export interface OsmAndSenderOptions {
  /** Base URL of the OsmAnd HTTP endpoint, e.g. http://127.0.0.1:5055 */
  readonly url: string;
  /** Retries after the first attempt on 5xx, 408, 429 and connection errors. */
  readonly maxRetries?: number;
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
  /** Called once per fix given up on, with the reason. */
  readonly onFailure?: (fix: Fix, reason: string) => void;
}

export interface SenderStats {
  sent: number;
  failed: number;
  retries: number;
}

/** The request URL for one fix. */
export function osmandUrl(base: string, fix: Fix): string {
  const url = new URL(base);
  if (!url.pathname) url.pathname = '/';
  const q = url.searchParams;
  q.set('id', fix.deviceId);
  q.set('lat', fix.lat.toFixed(6));
  q.set('lon', fix.lon.toFixed(6));
  q.set('timestamp', String(Math.floor(fix.time.getTime() / 1000)));
  q.set('speed', kphToKnots(fix.speedKph).toFixed(2));
  q.set('bearing', fix.courseDeg.toFixed(1));
  q.set('altitude', fix.altitudeM.toFixed(1));
  q.set('accuracy', fix.accuracyM.toFixed(1));
  q.set('batt', String(Math.round(fix.batteryPct)));
  return url.toString();
}

const retryableStatus = (status: number): boolean => status >= 500 || status === 408 || status === 429;

class HttpStatus extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

export class OsmAndSender implements Sender {
  readonly protocol = PROTOCOL;
  readonly stats: SenderStats = { sent: 0, failed: 0, retries: 0 };
  private readonly opts: Required<Omit<OsmAndSenderOptions, 'onFailure'>> & Pick<OsmAndSenderOptions, 'onFailure'>;

  constructor(options: OsmAndSenderOptions) {
    this.opts = {
      maxRetries: 3,
      initialBackoffMs: 250,
      maxBackoffMs: 4000,
      timeoutMs: 5000,
      fetch: globalThis.fetch,
      ...options,
    };
  }

  /** Posts the fix, retrying with exponential backoff and jitter; resolves false after giving up, never rejects. */
  async send(fix: Fix, signal?: AbortSignal): Promise<boolean> {
    const url = osmandUrl(this.opts.url, fix);
    let reason = 'aborted';
    let realFailure = false; // a refusal or error of its own, not our stop() cutting a request short
    const out = await retryWithBackoff(
      async () => {
        try {
          const timeout = AbortSignal.timeout(this.opts.timeoutMs);
          const res = await this.opts.fetch(url, { method: 'POST', signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
          await res.arrayBuffer().catch(() => undefined); // drain so the connection is reused
          if (!res.ok) throw new HttpStatus(res.status);
        } catch (err) {
          reason = err instanceof HttpStatus ? err.message : describeError(err);
          if (err instanceof HttpStatus || !signal?.aborted) realFailure = true;
          throw err;
        }
      },
      {
        retries: this.opts.maxRetries,
        initialMs: this.opts.initialBackoffMs,
        maxMs: this.opts.maxBackoffMs,
        ...(signal ? { signal } : {}),
        shouldRetry: (err) => !(err instanceof HttpStatus) || retryableStatus(err.status),
        onRetry: () => void this.stats.retries++,
      },
    );
    if (out?.ok) {
      this.stats.sent++;
      return true;
    }
    // stopped while the only attempt was in flight: neither sent nor a delivery failure
    if (!realFailure) return false;
    this.stats.failed++;
    this.opts.onFailure?.(fix, reason);
    return false;
  }
}

function describeError(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    const code = cause && typeof cause === 'object' && 'code' in cause ? String(cause.code) : undefined;
    return code ? `${err.message} (${code})` : err.message;
  }
  return String(err);
}
