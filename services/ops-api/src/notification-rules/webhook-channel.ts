import { retryWithBackoff } from '@corridor/platform';
import { Agent, request } from 'undici';
import { checkOutboundUrl, guardedLookup, noInternalReceivers, OutboundRefused, type OutboundPolicy } from './outbound-address';

export interface WebhookOptions {
  /** Attempts in all (the first try plus retries). */
  attempts: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Backoff before retry n (n ≥ 1): between half and all of backoffMs · 2^(n−1) (jitter). */
  backoffMs: number;
  /** Which addresses may be reached (default: public ones only). */
  policy?: OutboundPolicy;
}

export interface WebhookResult {
  ok: boolean;
  attempts: number;
  /** Why it was not delivered, for the log and the delivery record (never for the caller: see NotificationDispatcher). */
  error: string | null;
}

/** An answer that is not a success: 429 and 5xx are worth another attempt, the rest are final. */
class HttpStatus extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

function refusalOf(err: unknown): OutboundRefused | undefined {
  if (err instanceof OutboundRefused) return err;
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  return cause instanceof OutboundRefused ? cause : undefined;
}

const retryable = (err: unknown): boolean =>
  err instanceof HttpStatus ? err.status >= 500 || err.status === 429 : refusalOf(err) === undefined;

/**
 * POSTs a JSON payload (undici) to a public address only (outbound-address.ts: the URL's address,
 * or every address its name resolves to, checked, and the connection pinned to the checked one),
 * retrying network errors, timeouts, 429 and 5xx with exponential backoff and jitter (platform's
 * retryWithBackoff); any other 4xx, a redirect (never followed: it could point anywhere) and a
 * refused address are final.
 */
export function webhookChannel(opts: WebhookOptions) {
  const policy = opts.policy ?? noInternalReceivers;
  const agent = new Agent({ connect: { lookup: guardedLookup(policy), timeout: opts.timeoutMs }, connections: 16 });
  return async (url: string, payload: unknown, call: { attempts?: number } = {}): Promise<WebhookResult> => {
    const attempts = call.attempts ?? opts.attempts;
    if (attempts < 1) return { ok: false, attempts: 0, error: null };
    const out = await retryWithBackoff(
      async () => {
        const res = await request(checkOutboundUrl(url, policy), {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': 'application/json', 'user-agent': 'corridor-notifications' },
          body: JSON.stringify(payload),
          headersTimeout: opts.timeoutMs,
          bodyTimeout: opts.timeoutMs,
        });
        await res.body.dump();
        if (res.statusCode >= 300) throw new HttpStatus(res.statusCode);
      },
      { retries: attempts - 1, initialMs: opts.backoffMs, maxMs: opts.backoffMs * 2 ** Math.min(attempts, 16), shouldRetry: retryable },
    );
    if (!out) return { ok: false, attempts: 0, error: null }; // not reached: nothing cancels these attempts
    if (out.ok) return { ok: true, attempts: out.attempts, error: null };
    const err = out.error;
    return { ok: false, attempts: out.attempts, error: refusalOf(err)?.message ?? (err instanceof Error ? err.message : String(err)) };
  };
}
export type WebhookChannel = ReturnType<typeof webhookChannel>;
