import pRetry, { AbortError } from 'p-retry';

/** The waits between attempts: the first about `initialMs`, each next one doubled, none past `maxMs`. */
export interface Backoff {
  initialMs: number;
  maxMs: number;
}

export interface RetryOptions extends Partial<Backoff> {
  /** Attempts after the first (default: no limit; `cancelled` or `signal` ends them). */
  retries?: number;
  /** Whether an error is worth another attempt (default: every error). */
  shouldRetry?: (err: unknown) => boolean;
  /** Asked before each further attempt: once true, none starts and retryWithBackoff resolves undefined. */
  cancelled?: () => boolean;
  /** Aborting it ends the wait at once; retryWithBackoff then resolves undefined. */
  signal?: AbortSignal;
  /** Called after a failed attempt that another follows, with the attempt's number (1 for the first). */
  onRetry?: (err: unknown, attempt: number) => void;
}

/** The attempt's value, how many attempts it took, or the last error when it gave up. */
export type RetryOutcome<T> = { ok: true; value: T; attempts: number } | { ok: false; error: unknown; attempts: number };

/**
 * Runs `attempt` until it resolves, waiting between tries with exponential backoff and jitter
 * (p-retry: each wait drawn between half and all of initialMs·2^(n−1), at most maxMs), while
 * `shouldRetry` says so and retries are left. Resolves `undefined` when cancelled (by `cancelled()`
 * or `signal`) before an attempt succeeded, else the outcome; never rejects. Ingest's publishes,
 * ops-api's webhooks and the simulator's senders use it.
 */
export async function retryWithBackoff<T>(
  attempt: (n: number) => Promise<T>,
  opts: RetryOptions = {},
): Promise<RetryOutcome<T> | undefined> {
  const initialMs = opts.initialMs ?? 100;
  const isCancelled = (): boolean => opts.cancelled?.() === true || opts.signal?.aborted === true;
  let attempts = 0;
  let last: unknown;
  let done: { value: T } | undefined;
  let cancelled = false;
  try {
    await pRetry(
      async (n) => {
        if (n > 1 && isCancelled()) {
          cancelled = true;
          throw new AbortError('cancelled');
        }
        attempts = n;
        try {
          done = { value: await attempt(n) };
        } catch (err) {
          last = err;
          // p-retry gives up at once on what is not an Error and on a TypeError that is not a
          // network error; here the caller's shouldRetry alone decides
          throw err instanceof Error && !(err instanceof TypeError) ? err : new Error('attempt failed', { cause: err });
        }
      },
      {
        retries: opts.retries ?? Infinity,
        factor: 2,
        minTimeout: initialMs / 2,
        maxTimeout: opts.maxMs ?? 5000,
        randomize: true,
        ...(opts.signal ? { signal: opts.signal } : {}),
        shouldRetry: ({ attemptNumber }) => {
          if (!(opts.shouldRetry?.(last) ?? true)) return false;
          if (isCancelled()) {
            cancelled = true;
            return false;
          }
          opts.onRetry?.(last, attemptNumber);
          return true;
        },
      },
    );
  } catch {
    // the outcome is read below: p-retry's error is the last attempt's, a cancellation or the signal's reason
  }
  // (an attempt that succeeded while the signal was aborted still counts: p-retry would report the abort)
  if (done) return { ok: true, value: done.value, attempts };
  if (cancelled || isCancelled()) return undefined;
  return { ok: false, error: last, attempts };
}
