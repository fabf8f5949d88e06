import { ErrorCatalogue, type ErrorCode } from '@corridor/contracts';
import { AppError, IDENTITY_HEADER, signIdentity, type Identity, type InternalKeys } from '@corridor/platform';

export interface OpsApiOptions {
  baseUrl: () => string | undefined;
  keys: InternalKeys;
  /** the service called (its name in messages, the token's audience); ops-api unless given */
  service?: 'ops-api' | 'geofence';
}

/**
 * A call to ops-api's (or, `service`, another service's) API as the caller (their identity signed as the proxy signs it): its JSON
 * answer, undefined for 204; its 4xx errors thrown as they are; no answer or a 5xx is 503 naming `what`.
 */
export function opsApiCaller(opts: OpsApiOptions, what: string) {
  return async function call(method: 'GET' | 'POST' | 'DELETE', who: Identity, pathAndQuery: string, body?: unknown): Promise<unknown> {
    const service = opts.service ?? 'ops-api';
    const base = opts.baseUrl();
    if (!base) throw new AppError('UNAVAILABLE', `${service} keeps the ${what}, and its URL is not configured`, undefined, true);
    const token = await signIdentity(who, opts.keys, service);
    let res: Response;
    try {
      res = await fetch(new URL(`/api${pathAndQuery}`, base), {
        method,
        headers: { [IDENTITY_HEADER]: token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new AppError('UNAVAILABLE', `${service} is unavailable for the ${what}`, { cause: (err as Error).message }, true);
    }
    if (res.status === 204) return undefined;
    const json = (await res.json().catch(() => undefined)) as
      { error?: { code?: string; message?: string; details?: unknown } } | undefined;
    if (res.ok) return json;
    const e = json?.error;
    if (res.status < 500 && e?.code && Object.hasOwn(ErrorCatalogue, e.code))
      throw new AppError(e.code as ErrorCode, e.message ?? 'refused', e.details);
    throw new AppError('UNAVAILABLE', `${service} answered ${res.status} for the ${what}`, undefined, true);
  };
}
