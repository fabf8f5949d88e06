import type { FastifyRequest } from 'fastify';
import type { EndpointDef } from '@corridor/contracts';
import { AppError } from '@corridor/platform';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const isSafeMethod = (method: string): boolean => SAFE_METHODS.has(method);
/** GETs that change state all the same (Traccar's impersonation switches the session): no cross-site link, no read-only token. */
const STATE_CHANGING_GETS = new Set(['session.impersonate']);
export const changesState = (method: string, def: EndpointDef | undefined): boolean => !isSafeMethod(method) || STATE_CHANGING_GETS.has(def?.id ?? '');

/** True when the request's Origin (if any) is the gateway itself or one of the console's origins. */
export function originAllowed(req: FastifyRequest, allowed: readonly string[]): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (origin === 'null') return false;
  if (allowed.includes(origin)) return true;
  try {
    const o = new URL(origin);
    return Boolean(req.headers.host) && o.host === new URL(`${o.protocol}//${req.headers.host}`).host;
  } catch {
    return false;
  }
}

/**
 * CSRF protection for cookie sessions (bearer and basic callers are exempt: a browser never adds
 * those by itself). A state-changing request on a protected endpoint must carry X-Requested-With,
 * which a cross-site form cannot send and a cross-site script cannot send without a CORS
 * preflight that only the console's origin passes; a foreign Origin is refused outright. A
 * WebSocket upgrade (which CORS does not cover) must come from an allowed origin.
 */
export function checkCookieRequest(req: FastifyRequest, def: EndpointDef | undefined, allowedOrigins: readonly string[]): void {
  const upgrade = req.headers.upgrade?.toLowerCase() === 'websocket';
  if (upgrade) {
    if (!originAllowed(req, allowedOrigins)) throw new AppError('FORBIDDEN', 'WebSocket from a foreign origin refused');
    return;
  }
  if (!changesState(req.method, def) || def?.access === 'public') return;
  if (req.headers.origin && !originAllowed(req, allowedOrigins)) throw new AppError('FORBIDDEN', 'Cross-site request refused (origin not allowed)');
  const marker = req.headers['x-requested-with'];
  if (typeof marker !== 'string' || !marker.trim()) {
    throw new AppError('FORBIDDEN', 'CSRF check failed: requests that change state with the session cookie must send the X-Requested-With header');
  }
}
