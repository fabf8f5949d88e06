import { inspect } from 'node:util';
import { vi } from 'vitest';

/**
 * The default ceiling: generous for a busy 2-core CI machine with real Kafka and PostgreSQL, and
 * under vitest's 30 s test timeout, so a wait that never ends fails with what it waited for rather
 * than vitest's bare "test timed out". Callers whose test has a longer timeout pass a longer one.
 */
export const EVENTUALLY_CEILING_MS = 25_000;

export interface EventuallyOptions {
  /** Give up after this long (a ceiling that turns a broken run into a failure, never a measure). */
  ceilingMs?: number;
  /** Pause between two probes. */
  everyMs?: number;
}

class NotYet extends Error {}

const shown = (v: unknown): string => inspect(v, { depth: 3, breakLength: Infinity, maxStringLength: 300, maxArrayLength: 10 });

/**
 * Waits for a condition: calls `probe` (polling, through vitest's `vi.waitFor`) until it answers
 * something other than `undefined` or `false`, and returns that answer. A probe that throws is
 * retried too (the service may not be up yet). When the ceiling passes it fails with what it was
 * waiting for and the last answer or error it saw. Tests wait for conditions, never for durations.
 */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  options: EventuallyOptions | number = {},
): Promise<T> {
  const { ceilingMs = EVENTUALLY_CEILING_MS, everyMs = 50 } = typeof options === 'number' ? { ceilingMs: options } : options;
  let last: { value: unknown } | { error: unknown } | undefined;
  try {
    return await vi.waitFor(
      async () => {
        let v: T | undefined | false;
        try {
          v = await probe();
        } catch (error) {
          last = { error };
          throw error;
        }
        last = { value: v };
        if (v === undefined || v === false) throw new NotYet();
        return v;
      },
      { timeout: ceilingMs, interval: everyMs },
    );
  } catch {
    const seen =
      last === undefined
        ? 'the probe never answered'
        : 'error' in last
          ? `last error: ${last.error instanceof Error ? last.error.message : shown(last.error)}`
          : `last answer: ${shown(last.value)}`;
    throw new Error(`timed out after ${ceilingMs / 1000} s waiting for ${what} (${seen})`, {
      cause: last && 'error' in last ? last.error : undefined,
    });
  }
}
