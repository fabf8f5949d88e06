import type { FastifyRequest } from 'fastify';
import type { EndpointDef } from '@corridor/contracts';
import { AppError, counter } from '@corridor/platform';

const refusals = counter('gateway_cross_site_refused_total', 'Requests refused as cross-site (CSRF, WebSocket and sign-in origin checks)', [
  'kind',
]);

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method);
/** GETs that change state all the same (Traccar's impersonation switches the session): no cross-site link, no read-only token. */
const STATE_CHANGING_GETS = new Set(['session.impersonate']);
export const changesState = (method: string, def: EndpointDef | undefined): boolean =>
  !isSafeMethod(method) || STATE_CHANGING_GETS.has(def?.id ?? '');

export interface OriginPolicy {
  /** Origins trusted besides the gateway's own (CONSOLE_ORIGIN). */
  allowed: readonly string[];
  /** Behind trusted proxies (TRUST_PROXY_HOPS > 0) the gateway's own host is also X-Forwarded-Host's. */
  trustForwardedHost: boolean;
}

const first = (h: string | string[] | undefined): string | undefined => (Array.isArray(h) ? h[0] : h)?.split(',')[0]?.trim() || undefined;

/** The host a `Forwarded` header (RFC 7239) names in its first element: `Forwarded: for=…;host=corridor.example;proto=https`. */
function forwardedHost(h: string | string[] | undefined): string | undefined {
  const element = first(h);
  const host = element
    ?.split(';')
    .map((p) => p.trim().split('='))
    .find(([k]) => k?.toLowerCase() === 'host')?.[1];
  return host?.replace(/^"(.*)"$/, '$1') || undefined;
}

/** The hosts the gateway is reached as: Host, and behind trusted proxies X-Forwarded-Host and Forwarded's host. */
function ownHosts(req: FastifyRequest, policy: OriginPolicy): string[] {
  const forwarded = policy.trustForwardedHost ? [first(req.headers['x-forwarded-host']), forwardedHost(req.headers.forwarded)] : [];
  return [req.headers.host, ...forwarded].filter((h): h is string => Boolean(h));
}

/** True when `origin` is the gateway's own (as the request reached it, or as a trusted proxy forwarded it) or a configured one. */
function trustedOrigin(req: FastifyRequest, origin: string, policy: OriginPolicy): boolean {
  if (policy.allowed.includes(origin)) return true;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  return ownHosts(req, policy).some((host) => {
    try {
      return o.host === new URL(`${o.protocol}//${host}`).host;
    } catch {
      return false;
    }
  });
}

/** What to set so that an origin refused here is accepted, for the 403's message. */
function remedy(req: FastifyRequest, policy: OriginPolicy): string {
  const proxy = policy.trustForwardedHost
    ? ''
    : ' Behind a reverse proxy that rewrites Host, set TRUST_PROXY_HOPS to the number of proxies so that X-Forwarded-Host (or Forwarded) is trusted.';
  return ` This server is reached as ${ownHosts(req, policy).join(', ') || 'no host'}; to accept another origin, add it to CONSOLE_ORIGIN (comma-separated origins).${proxy}`;
}

/**
 * Why a request is cross-site, or undefined when it is not (the rule of the fetch metadata and
 * Origin headers every browser sends, as Go's CrossOriginProtection applies it):
 * - `Sec-Fetch-Site: same-origin` (or `none`, the user's own navigation): the browser says so, whatever
 *   Host a proxy rewrote;
 * - an Origin header: it must be the gateway's own origin or a configured one (the console's);
 * - neither: not a browser's cross-site request (browsers send Origin on every cross-origin
 *   request that is not a GET), so Traccar apps, curl and other API clients pass without custom headers.
 */
export function crossSiteReason(req: FastifyRequest, policy: OriginPolicy): string | undefined {
  const site = first(req.headers['sec-fetch-site']);
  if (site === 'same-origin' || site === 'none') return undefined;
  const origin = first(req.headers.origin);
  if (origin) return origin !== 'null' && trustedOrigin(req, origin, policy) ? undefined : `origin ${origin} not allowed`;
  if (site === 'cross-site' || site === 'same-site') return `Sec-Fetch-Site ${site}`;
  return undefined;
}

/** Positive evidence of a same-origin caller: fetch metadata, a trusted Origin, or a header a cross-site page cannot add. */
function sameOriginProof(req: FastifyRequest, policy: OriginPolicy): boolean {
  if (first(req.headers['sec-fetch-site']) === 'same-origin') return true;
  const origin = first(req.headers.origin);
  if (origin && trustedOrigin(req, origin, policy)) return true;
  return Boolean(first(req.headers['x-requested-with']));
}

/**
 * Cross-site protection for what a browser sends by itself: a WebSocket upgrade (which CORS does not
 * cover), a state-changing request with the session cookie (CSRF), and sign-in or any other public
 * state-changing call (login CSRF). Bearer and basic callers are exempt: a browser never adds those
 * by itself. X-Requested-With is accepted as before but no longer needed: the origin decides.
 */
export function checkCrossSite(
  req: FastifyRequest,
  def: EndpointDef | undefined,
  policy: OriginPolicy,
  via: 'cookie' | 'bearer' | 'basic' | undefined,
): void {
  const upgrade = req.headers.upgrade?.toLowerCase() === 'websocket';
  if (upgrade) {
    const why = crossSiteReason(req, policy);
    if (why) {
      refusals.inc({ kind: 'websocket' });
      throw new AppError('FORBIDDEN', `WebSocket from a foreign origin refused (${why}).${remedy(req, policy)}`, {
        origin: first(req.headers.origin) ?? null,
        setting: 'CONSOLE_ORIGIN',
      });
    }
    return;
  }
  if (!changesState(req.method, def)) return;
  const guarded = via === 'cookie' || (via === undefined && def?.access === 'public');
  if (!guarded) return;
  let why = crossSiteReason(req, policy);
  // a GET that changes state (impersonation) is what a cross-site link or image sends from an old
  // browser without fetch metadata: it needs positive proof of its origin
  if (!why && isSafeMethod(req.method) && !sameOriginProof(req, policy)) why = 'send X-Requested-With, or come from the same origin';
  if (!why) return;
  refusals.inc({ kind: via === 'cookie' ? 'cookie' : 'public' });
  throw new AppError('FORBIDDEN', `Cross-site request refused (${why}).${remedy(req, policy)}`, {
    origin: first(req.headers.origin) ?? null,
    setting: 'CONSOLE_ORIGIN',
    trustProxyHops: policy.trustForwardedHost,
  });
}
