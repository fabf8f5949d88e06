import type { FastifyReply, FastifyRequest } from 'fastify';

/** The session cookie's name (the OpenAPI document's `session` security scheme names it too). */
export const SESSION_COOKIE = 'corridor_session';

export interface CookieSettings {
  secure: boolean;
  ttlSeconds: number;
}

/** HttpOnly, Secure, SameSite=Lax and signed (HMAC with COOKIE_SECRET): a tampered value is ignored. */
export function setSessionCookie(reply: FastifyReply, sid: string, s: CookieSettings): void {
  void reply.setCookie(SESSION_COOKIE, sid, {
    path: '/',
    httpOnly: true,
    secure: s.secure,
    sameSite: 'lax',
    signed: true,
    maxAge: s.ttlSeconds,
  });
}

export function clearSessionCookie(reply: FastifyReply, s: CookieSettings): void {
  void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure: s.secure, sameSite: 'lax' });
}

/** The session id from a cookie whose signature holds, else undefined. */
export function sessionIdOf(req: FastifyRequest): string | undefined {
  const raw = req.cookies[SESSION_COOKIE];
  if (!raw) return undefined;
  const r = req.unsignCookie(raw);
  return r.valid && r.value ? r.value : undefined;
}
