import { sessionEndpoints } from '@corridor/contracts';
import { AppError, registerEndpoint, type App } from '@corridor/platform';
import { actorOf } from '../audit/audit';
import { setSessionCookie, type CookieSettings } from '../auth/session-cookie';
import type { SessionStore } from '../auth/sessions';
import type { OpenIdService } from './service';

const [, , , , , authEndpoint, callbackEndpoint] = sessionEndpoints;

/** GET /session/openid/auth (303 to the provider) and /callback (303 to the console, signed in). */
export function openIdRoutes(
  app: App,
  deps: { openid: OpenIdService | undefined; sessions: SessionStore; cookie: CookieSettings; successRedirect: string },
): void {
  const notConfigured = () => new AppError('VALIDATION_FAILED', 'OpenID Connect sign-in is not configured on this server');
  registerEndpoint(app, authEndpoint, async (_req, reply) => {
    if (!deps.openid) throw notConfigured();
    return reply.redirect((await deps.openid.start()).toString(), 303);
  });
  registerEndpoint(app, callbackEndpoint, async (req, reply) => {
    if (!deps.openid) throw notConfigured();
    const rawQuery = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    const user = await deps.openid.finish(req.query, rawQuery, actorOf(req));
    if (req.auth?.sessionId) await deps.sessions.destroy(req.auth.sessionId, req.auth.user.id);
    setSessionCookie(reply, await deps.sessions.create(user.id, 'openid'), deps.cookie);
    return reply.redirect(deps.successRedirect, 303);
  });
}
