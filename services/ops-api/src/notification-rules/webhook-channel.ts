import { request } from 'undici';

export interface WebhookOptions {
  /** Attempts in all (the first try plus retries). */
  attempts: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Backoff before retry n (n ≥ 1): backoffMs · 2^(n−1). */
  backoffMs: number;
}

export interface WebhookResult {
  ok: boolean;
  attempts: number;
  error: string | null;
}

/**
 * POSTs a JSON payload (undici), retrying network errors, timeouts, 429 and 5xx with exponential
 * backoff; any other 4xx is final (the receiver refused the payload).
 */
export function webhookChannel(opts: WebhookOptions) {
  return async (url: string, payload: unknown): Promise<WebhookResult> => {
    let error: string | null = null;
    for (let attempt = 1; attempt <= opts.attempts; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, opts.backoffMs * 2 ** (attempt - 2)));
      try {
        const res = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'corridor-notifications' },
          body: JSON.stringify(payload),
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        });
        await res.body.dump();
        if (res.statusCode < 300) return { ok: true, attempts: attempt, error: null };
        error = `HTTP ${res.statusCode}`;
        if (res.statusCode < 500 && res.statusCode !== 429) return { ok: false, attempts: attempt, error };
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
      }
    }
    return { ok: false, attempts: opts.attempts, error };
  };
}
export type WebhookChannel = ReturnType<typeof webhookChannel>;
