import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryWithBackoff } from './retry';

/** The waits p-retry asked for, read from the timers it set (fake timers: nothing waits for real). */
function recordWaits(): number[] {
  const waits: number[] = [];
  const real = globalThis.setTimeout;
  vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number) => {
    waits.push(ms ?? 0);
    return real(fn, 0);
  }) as typeof setTimeout);
  return waits;
}

afterEach(() => vi.restoreAllMocks());

describe('retryWithBackoff', () => {
  it('tries again until the attempt succeeds, telling each retry', async () => {
    recordWaits();
    const retried: number[] = [];
    let n = 0;
    const out = await retryWithBackoff(
      async () => {
        if (++n < 4) throw new Error(`down ${n}`);
        return 'up';
      },
      { onRetry: (_err, attempt) => retried.push(attempt) },
    );
    expect(out).toEqual({ ok: true, value: 'up', attempts: 4 });
    expect(retried).toEqual([1, 2, 3]);
  });

  it('waits with exponential backoff and jitter: between half and all of initialMs·2^(n−1), at most maxMs', async () => {
    const waits = recordWaits();
    const random = vi.spyOn(Math, 'random');
    let n = 0;
    await retryWithBackoff(
      async () => {
        random.mockReturnValue(n % 2 ? 0 : 0.999999);
        if (++n < 7) throw new Error('down');
      },
      { initialMs: 100, maxMs: 1000 },
    );
    // draws alternate high (≈ all) and low (half): 100, 100, 400, 400, 1000 (capped), 1000 (half of 3200, capped)
    expect(waits).toEqual([100, 100, 400, 400, 1000, 1000]);
  });

  it('gives up on an error shouldRetry refuses, with that error and no wait', async () => {
    const waits = recordWaits();
    const refused = new Error('refused');
    const out = await retryWithBackoff(
      async () => {
        throw refused;
      },
      { shouldRetry: (err) => err !== refused },
    );
    expect(out).toEqual({ ok: false, error: refused, attempts: 1 });
    expect(waits).toEqual([]);
  });

  it('retries what p-retry alone would not (a TypeError, a thrown string) when shouldRetry allows it', async () => {
    recordWaits();
    const thrown: unknown[] = [new TypeError('x is undefined'), 'text'];
    const out = await retryWithBackoff(async (n) => {
      if (n <= thrown.length) throw thrown[n - 1];
      return n;
    });
    expect(out).toEqual({ ok: true, value: 3, attempts: 3 });
  });

  it('stops after `retries` more attempts, with the last error', async () => {
    recordWaits();
    const out = await retryWithBackoff(
      async (n) => {
        throw new Error(`fail ${n}`);
      },
      { retries: 2 },
    );
    expect(out).toMatchObject({ ok: false, attempts: 3 });
    expect((out as { error: Error }).error.message).toBe('fail 3');
  });

  it('starts no attempt once cancelled, and resolves undefined', async () => {
    recordWaits();
    let open = true;
    let n = 0;
    const out = await retryWithBackoff(
      async () => {
        n++;
        open = false; // the connection closes while the first attempt fails
        throw new Error('bus down');
      },
      { cancelled: () => !open },
    );
    expect(out).toBeUndefined();
    expect(n).toBe(1);
  });

  it('ends its wait when the signal aborts', async () => {
    const controller = new AbortController();
    let n = 0;
    // an hour's wait: only the abort can end it within the test's time
    const out = retryWithBackoff(
      async () => {
        n++;
        queueMicrotask(() => setImmediate(() => controller.abort()));
        throw new Error('down');
      },
      { initialMs: 3_600_000, maxMs: 3_600_000, signal: controller.signal },
    );
    await expect(out).resolves.toBeUndefined();
    expect(n).toBe(1);
  });
});
