import { ErrorCatalogue, type ErrorCode, type Permission } from '@corridor/contracts';
import { AppError, IDENTITY_HEADER, signIdentity, type Identity, type InternalKeys } from '@corridor/platform';

/**
 * Links to a notification rule (Traccar permissions with notificationId) are the rule's own fields,
 * kept by ops-api: /permissions forwards them to ops-api's /notifications/links with the caller's
 * identity (signed as the proxy signs it), so ops-api applies its own company checks and keeps the
 * one copy. ops-api's 4xx answers pass through as they are; no answer is 503.
 */
export function notificationLinksClient(opts: { baseUrl: () => string | undefined; keys: InternalKeys }) {
  async function call(method: 'GET' | 'POST' | 'DELETE', who: Identity, query: string, body?: unknown, path = '/notifications/links'): Promise<unknown> {
    const base = opts.baseUrl();
    if (!base) throw new AppError('UNAVAILABLE', 'Notification links are kept by ops-api, whose URL is not configured', undefined, true);
    const token = await signIdentity(who, opts.keys, 'ops-api');
    let res: Response;
    try {
      res = await fetch(new URL(`/api${path}${query}`, base), {
        method,
        headers: { [IDENTITY_HEADER]: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new AppError('UNAVAILABLE', 'ops-api is unavailable to keep notification links', { cause: (err as Error).message }, true);
    }
    if (res.status === 204) return undefined;
    const json = (await res.json().catch(() => undefined)) as { error?: { code?: string; message?: string; details?: unknown } } | undefined;
    if (res.ok) return json;
    const e = json?.error;
    if (res.status < 500 && e?.code && Object.hasOwn(ErrorCatalogue, e.code)) throw new AppError(e.code as ErrorCode, e.message ?? 'refused', e.details);
    throw new AppError('UNAVAILABLE', `ops-api answered ${res.status} to a notification link`, undefined, true);
  }
  // `path`: where ops-api keeps these links (contracts opsLinkPath: a notification rule's, a scheduled report's)
  return {
    list: async (q: Record<string, number | undefined>, who: Identity, path?: string): Promise<Permission[]> => {
      const params = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)] as [string, string]));
      return (await call('GET', who, `?${params}`, undefined, path)) as Permission[];
    },
    link: async (links: readonly Permission[], who: Identity, path?: string): Promise<void> => void (await call('POST', who, '', links, path)),
    unlink: async (links: readonly Permission[], who: Identity, path?: string): Promise<void> => void (await call('DELETE', who, '', links, path)),
  };
}
export type NotificationLinksClient = ReturnType<typeof notificationLinksClient>;
