import { sessionEndpoints } from '@corridor/contracts';
import { AppError, registerEndpoint, type App, type Orm } from '@corridor/platform';
import { actorOf, audit } from '../audit/audit';
import type { Authenticator } from '../auth/authenticator';
import { clearSessionCookie, setSessionCookie, type CookieSettings } from '../auth/session-cookie';
import type { SessionStore } from '../auth/sessions';
import type { TokenService } from '../auth/tokens';
import type { ClientIp } from '../protection/client-ip';
import type { UsersRepository } from '../users/repository';
import { toUser } from '../users/user-model';

const [getSession, createSession, deleteSession, createToken, revokeToken] = sessionEndpoints;

export interface SessionRouteDeps {
  db: Orm;
  authn: Authenticator;
  sessions: SessionStore;
  tokens: TokenService;
  users: UsersRepository;
  cookie: CookieSettings;
  clientIp: ClientIp;
  now: () => Date;
}

/** Traccar's session API: cookie sign-in and sign-out, the current user, bearer tokens. */
export function sessionRoutes(app: App, deps: SessionRouteDeps): void {
  const { sessions, cookie } = deps;

  registerEndpoint(app, getSession, async (req, reply) => {
    if (req.query.token) {
      // Traccar: GET /api/session?token=… signs in with the token and sets the cookie
      const auth = await deps.authn.bearer(req.query.token);
      if (req.auth?.sessionId) await sessions.destroy(req.auth.sessionId, req.auth.user.id);
      setSessionCookie(reply, await sessions.create(auth.user.id, 'token'), cookie);
      return toUser(auth.user);
    }
    if (!req.auth) throw new AppError('NOT_FOUND', 'No session');
    return toUser(req.auth.user);
  });

  registerEndpoint(app, createSession, async (req, reply) => {
    const user = await deps.authn.password(req.body.email, req.body.password, deps.clientIp(req));
    // a new session id at every sign-in (no fixation); the old session, if any, ends
    if (req.auth?.sessionId) await sessions.destroy(req.auth.sessionId, req.auth.user.id);
    setSessionCookie(reply, await sessions.create(user.id, 'password'), cookie);
    await deps.users.recordLogin(user.id, deps.now());
    await audit.record(deps.db, { ...actorOf(req), userId: user.id, email: user.email }, { action: 'session.login', entityType: 'session', entityId: user.id });
    return toUser(user);
  });

  registerEndpoint(app, deleteSession, async (req, reply) => {
    if (req.auth?.sessionId) {
      await sessions.destroy(req.auth.sessionId, req.auth.user.id);
      await audit.record(deps.db, actorOf(req), { action: 'session.logout', entityType: 'session', entityId: req.auth.user.id });
    }
    clearSessionCookie(reply, cookie);
    return reply.code(204).send();
  });

  registerEndpoint(app, createToken, async (req, reply) => {
    const { token } = await deps.tokens.issue(req.identity!.userId, req.body, actorOf(req));
    return reply.code(200).type('text/plain; charset=utf-8').send(token);
  });

  registerEndpoint(app, revokeToken, async (req, reply) => {
    await deps.tokens.revoke(req.body.token, req.identity!, actorOf(req));
    return reply.code(204).send();
  });
}
