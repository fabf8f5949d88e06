import type { EndpointDef } from '@corridor/contracts/endpoint';
import { ApiError, errorFromResponse } from './errors';
import type { CallInput, ResponseOf } from './types';

/** Every request says it comes from the console script (the gateway's CSRF check for cookie sessions). */
const CONSOLE_HEADERS = { 'x-requested-with': 'corridor-console' };

/**
 * Responses are checked against their contract schema in development, and in any build when
 * localStorage `corridor.checkResponses` is '1' (the browser tests turn it on): a drift between the
 * API and packages/contracts then fails loudly instead of rendering wrong data.
 */
function checkResponses(): boolean {
  if (import.meta.env.DEV) return true;
  try {
    return globalThis.localStorage?.getItem('corridor.checkResponses') === '1';
  } catch {
    return false;
  }
}

/** '/journey/{id}/cancel' with { id: 4 } → '/api/journey/4/cancel'. */
export function pathOf(def: Pick<EndpointDef, 'path'>, params: Record<string, unknown> | undefined): string {
  return (
    '/api' +
    def.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = params?.[name];
      if (v === undefined || v === null || v === '') throw new Error(`missing path parameter ${name} for ${def.path}`);
      return encodeURIComponent(String(v));
    })
  );
}

/** Query values as the API reads them: arrays repeat the key, undefined and null are left out. */
export function queryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const v of Array.isArray(value) ? value : [value]) q.append(key, v instanceof Date ? v.toISOString() : String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The URL of a GET endpoint (downloads, links). */
export function urlOf<E extends EndpointDef>(
  def: E,
  input: Omit<CallInput<E>, 'body' | 'signal'> = {} as Omit<CallInput<E>, 'body' | 'signal'>,
): string {
  const { params, query } = input as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  return pathOf(def, params) + queryString(query);
}

function successSchema(def: EndpointDef, status: number) {
  return def.responses[status]?.schema ?? def.responses[200]?.schema ?? null;
}

/** Calls one endpoint of packages/contracts with the session cookie; typed from its schemas. */
export async function call<E extends EndpointDef>(def: E, input: CallInput<E> = {} as CallInput<E>): Promise<ResponseOf<E>> {
  const { params, query, body, signal } = input as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    body?: unknown;
    signal?: AbortSignal;
  };
  const headers: Record<string, string> = { ...CONSOLE_HEADERS, accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(pathOf(def, params) + queryString(query), {
    method: def.method.toUpperCase(),
    headers,
    body: payload,
    credentials: 'same-origin',
    signal,
  });
  if (!res.ok) throw await errorFromResponse(res, def.id);
  const schema = successSchema(def, res.status);
  if (res.status === 204 || !schema) return undefined as ResponseOf<E>;
  const type = res.headers.get('content-type') ?? '';
  const data: unknown = type.includes('json') ? await res.json() : await res.text();
  if (!checkResponses()) return data as ResponseOf<E>;
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const drift = new ApiError(
      0,
      'CONTRACT_DRIFT',
      `${def.id}: the response does not match packages/contracts`,
      parsed.error.issues.slice(0, 5),
    );
    console.error(drift.message, parsed.error.issues.slice(0, 5));
    throw drift;
  }
  return parsed.data as ResponseOf<E>;
}
