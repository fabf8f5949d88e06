import { Agent, request } from 'undici';
import { checkOutboundUrl, guardedLookup, noInternalReceivers, OutboundRefused, type OutboundPolicy } from './outbound-address';

export interface WebhookOptions {
  /** Attempts in all (the first try plus retries). */
  attempts: number;
  /** Per-attempt timeout. */
  timeoutMs: number;
  /** Backoff before retry n (n ≥ 1): backoffMs · 2^(n−1). */
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

/**
 * POSTs a JSON payload (undici) to a public address only (outbound-address.ts: the URL's address,
 * or every address its name resolves to, checked, and the connection pinned to the checked one),
 * retrying network errors, timeouts, 429 and 5xx with exponential backoff; any other 4xx, a
 * redirect (never followed: it could point anywhere) and a refused address are final.
 */
export function webhookChannel(opts: WebhookOptions) {
  const policy = opts.policy ?? noInternalReceivers;
  const agent = new Agent({ connect: { lookup: guardedLookup(policy), timeout: opts.timeoutMs }, connections: 16 });
  return async (url: string, payload: unknown, call: { attempts?: number } = {}): Promise<WebhookResult> => {
    const attempts = call.attempts ?? opts.attempts;
    let error: string | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, opts.backoffMs * 2 ** (attempt - 2)));
      try {
        const target = checkOutboundUrl(url, policy);
        const res = await request(target, {
          method: 'POST',
          dispatcher: agent,
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
        const refused = err instanceof OutboundRefused ? err : (err as { cause?: unknown }).cause instanceof OutboundRefused ? ((err as { cause: OutboundRefused }).cause) : undefined;
        if (refused) return { ok: false, attempts: attempt, error: refused.message };
        error = err instanceof Error ? err.message : String(err);
      }
    }
    return { ok: false, attempts, error };
  };
}
export type WebhookChannel = ReturnType<typeof webhookChannel>;
