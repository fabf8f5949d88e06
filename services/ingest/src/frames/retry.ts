/**
 * Calls `attempt` until it resolves, waiting with exponential backoff (with jitter) between tries
 * while `shouldRetry(err)` says so. The first try always runs; no retry starts once `cancelled()`
 * is true (the result is then `undefined`).
 */
export async function retryWithBackoff<T>(
  attempt: () => Promise<T>,
  opts: {
    shouldRetry: (err: unknown) => boolean;
    cancelled: () => boolean;
    onRetry?: (err: unknown, attempt: number) => void;
    initialMs?: number;
    maxMs?: number;
  },
): Promise<{ value: T } | undefined> {
  const initial = opts.initialMs ?? 100;
  const max = opts.maxMs ?? 5000;
  for (let n = 1; ; n++) {
    if (n > 1 && opts.cancelled()) return undefined;
    try {
      return { value: await attempt() };
    } catch (err) {
      if (!opts.shouldRetry(err)) throw err;
      opts.onRetry?.(err, n);
      const delay = Math.min(max, initial * 2 ** (n - 1));
      await new Promise((r) => setTimeout(r, delay / 2 + (Math.random() * delay) / 2));
    }
  }
}
