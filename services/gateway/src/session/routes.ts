import { sessionEndpoints } from '@corridor/contracts';
import { AppError, registerEndpoint, type App, type Orm } from '@corridor/platform';
import { actorOf, audit } from '../audit/audit';
import type { Authenticator } from '../auth/authenticator';
import { crossSiteReason, type OriginPolicy } from '../auth/csrf';
import { clearSessionCookie, setSessionCookie, type CookieSettings } from '../auth/session-cookie';
import type { SessionStore } from '../auth/sessions';
import type { TokenService } from '../auth/tokens';
import type { ClientIp } from '../protection/client-ip';
import { TotpRequired } from '../totp/service';
import type { UsersRepository } from '../users/repository';
import { toUser } from '../users/user-model';
import type { Impersonation } from './impersonation';

const [getSession, createSession, deleteSession, createToken, revokeToken, , , impersonate] = sessionEndpoints;

export interface SessionRouteDeps {
  db: Orm;
  authn: Authenticator;
  sessions: SessionStore;
  tokens: TokenService;
  users: UsersRepository;
  cookie: CookieSettings;
  clientIp: ClientIp;
  now: () => Date;
  impersonation: Impersonation;
  /** The gateway's own and trusted origins: a token sign-in by GET must not come from another site. */
  origins: OriginPolicy;
}

/** Traccar's session API: cookie sign-in (with TOTP) and sign-out, the current user, bearer tokens, impersonation. */
export function sessionRoutes(app: App, deps: SessionRouteDeps): void {
  const { sessions, cookie } = deps;

  registerEndpoint(app, getSession, async (req, reply) => {
    if (req.query.token) {
      // Traccar: GET /api/session?token=… signs in with the token and sets the cookie (traccar-web's
      // token login fetches it from its own page). A GET is what a foreign page's link or image sends,
      // so (login CSRF, issue 23) it is refused from another site, and it never replaces a session:
      // a signed-in user cannot be switched into the account whose token a page carries.
      const crossSite = crossSiteReason(req, deps.origins);
      if (crossSite) throw new AppError('FORBIDDEN', `Token sign-in from another site refused (${crossSite})`);
      const auth = await deps.authn.bearer(req.query.token);
      // a session has full rights: a read-only token must not become one
      if (auth.scope !== 'full') throw new AppError('FORBIDDEN', 'A read-only token cannot open a session; use it as a Bearer token');
      if (req.auth?.sessionId) {
        if (req.auth.user.id === auth.user.id) return toUser(req.auth.user);
        throw new AppError(
          'CONFLICT',
          'A session is open for another user: sign out first (DELETE /api/session), then sign in with the token',
        );
      }
      setSessionCookie(reply, await sessions.create(auth.user.id, 'token'), cookie);
      await audit.record(
        deps.db,
        { ...actorOf(req), userId: auth.user.id, email: auth.user.email },
        { action: 'session.login', entityType: 'session', entityId: auth.user.id, after: { via: 'token' } },
      );
      return toUser(auth.user);
    }
    if (!req.auth) throw new AppError('NOT_FOUND', 'No session');
    return toUser(req.auth.user);
  });

  registerEndpoint(app, createSession, async (req, reply) => {
    const user = await deps.authn.password(req.body.email, req.body.password, deps.clientIp(req), req.body.code).catch((err: unknown) => {
      // Traccar clients ask for the code when they see this header
      if (err instanceof TotpRequired) void reply.header('www-authenticate', 'TOTP');
      throw err;
    });
    // a new session id at every sign-in (no fixation); the old session, if any, ends
    if (req.auth?.sessionId) await sessions.destroy(req.auth.sessionId, req.auth.user.id);
    setSessionCookie(reply, await sessions.create(user.id, 'password'), cookie);
    await deps.users.recordLogin(user.id, deps.now());
    await audit.record(
      deps.db,
      { ...actorOf(req), userId: user.id, email: user.email },
      { action: 'session.login', entityType: 'session', entityId: user.id, after: user.totpKey ? { secondFactor: 'totp' } : undefined },
    );
    return toUser(user);
  });

  registerEndpoint(app, deleteSession, async (req, reply) => {
    const impersonated = req.auth?.impersonator;
    if (req.auth?.sessionId && impersonated) await deps.impersonation.end({ ...req.auth, impersonator: impersonated }, actorOf(req));
    else if (req.auth?.sessionId) {
      await sessions.destroy(req.auth.sessionId, req.auth.user.id);
      await audit.record(deps.db, actorOf(req), { action: 'session.logout', entityType: 'session', entityId: req.auth.user.id });
    }
    clearSessionCookie(reply, cookie);
    return reply.code(204).send();
  });

  registerEndpoint(app, createToken, async (req, reply) => {
    // a token would outlive the impersonation and carry no trace of the administrator
    if (req.auth?.impersonator) throw new AppError('FORBIDDEN', 'An impersonation session cannot issue bearer tokens');
    const { token } = await deps.tokens.issue(req.identity!.userId, req.body, actorOf(req));
    return reply.code(200).type('text/plain; charset=utf-8').send(token);
  });

  registerEndpoint(app, revokeToken, async (req, reply) => {
    await deps.tokens.revoke(req.body.token, req.identity!, actorOf(req));
    return reply.code(204).send();
  });

  registerEndpoint(app, impersonate, async (req, reply) => {
    const { sid, user } = await deps.impersonation.start(req.auth!, req.params.id, actorOf(req));
    setSessionCookie(reply, sid, cookie);
    return toUser(user);
  });
}
