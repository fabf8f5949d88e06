import { z } from 'zod';
import { idParam } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime } from './common';
import { TotpCode, User } from './users';

/** POST /session: email (or login) and password, as a form (Traccar clients) or JSON; `code` for a user with TOTP. */
export const LoginInput = z
  .object({
    email: z.string().trim().min(1).max(254).describe('Email or login, matched case-insensitively'),
    password: z.string().min(1).max(256),
    code: TotpCode.optional().describe('The TOTP code, required when the user has a second factor'),
  })
  .meta({ id: 'LoginInput' });
export type LoginInput = z.infer<typeof LoginInput>;

/**
 * Why a sign-in (or a code proving who asks) was refused: `details.reason` of POST /session's 401,
 * and of a 400 on a one-time code (the account screen's TOTP enrolment and turning it off), so a
 * client can word it without reading the server's English.
 */
export const SignInRefusal = z.enum(['credentialsWrong', 'accountInactive', 'codeRequired', 'codeWrong', 'codeUsed']);
export type SignInRefusal = z.infer<typeof SignInRefusal>;

export const SessionQuery = z.object({
  token: z.string().min(1).max(512).optional().describe('A bearer token: signs in with it and sets the session cookie (Traccar)'),
});

/** What a bearer token may do: everything its user may ('full'), or only read (GET/HEAD). */
export const TokenScope = z.enum(['full', 'read']);
export type TokenScope = z.infer<typeof TokenScope>;

export const TokenRequest = z
  .object({
    expiration: IsoDateTime.optional().describe('When the token expires (default in 7 days; capped by the server maximum)'),
    scope: TokenScope.default('full'),
  })
  .meta({ id: 'TokenRequest' });
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenRevoke = z.object({ token: z.string().min(1).max(512) }).meta({ id: 'TokenRevoke' });

/** The identity provider's redirect back: code and state, or an error. Other parameters pass through. */
export const OpenIdCallbackQuery = z.looseObject({
  code: z.string().max(2048).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

const tags = ['session'];
export const sessionEndpoints = [
  defineEndpoint({
    id: 'session.get',
    method: 'get',
    path: '/session',
    service: 'gateway',
    tags,
    summary: 'The signed-in user (404 without a session)',
    description:
      'With ?token=<bearer token> the caller signs in with that token and receives the session cookie (as Traccar; traccar-web fetches it ' +
      'from its own page). Refused (403) when the browser says the request comes from another site (Sec-Fetch-Site, Origin), and it never replaces a ' +
      'session: with a session open for another user it answers 409 (sign out first), for the same user the session as it is.',
    access: 'public',
    request: { query: SessionQuery },
    responses: { 200: { description: 'The user', schema: User } },
  }),
  defineEndpoint({
    id: 'session.create',
    method: 'post',
    path: '/session',
    service: 'gateway',
    tags,
    summary: 'Sign in (form or JSON: email, password); sets the session cookie',
    description:
      'Sets an HttpOnly, Secure, SameSite=Lax signed cookie `corridor_session`. A wrong password answers 401; too many ' +
      'failures (wrong passwords and wrong TOTP codes) lock the address: see below. For a user with a TOTP second factor, ' +
      'a request without `code` answers 401 with the header `WWW-Authenticate: TOTP` (as Traccar); a wrong code, or a ' +
      'code already used (replay), answers 401. Codes of the previous and next 30 s step are accepted. Every 401 names ' +
      'its reason in `details.reason` (SignInRefusal): credentialsWrong (email or password), accountInactive (disabled or ' +
      'expired), codeRequired (no code sent), ' +
      'codeWrong (not a code of this 90 s window), codeUsed (a code of a step used already). Too many ' +
      'failures for an address or from an address answer 429 until the lockout ends. Cross-site protection by origin: ' +
      'sign-in and state-changing requests made with the cookie are refused (403) when their Origin (or Sec-Fetch-Site) ' +
      'names another site than the gateway or CONSOLE_ORIGIN; clients that send no such header (Traccar apps, curl) need ' +
      'nothing extra, and bearer and basic requests are exempt.',
    access: 'public',
    request: { body: LoginInput },
    responses: { 200: { description: 'The user', schema: User } },
  }),
  defineEndpoint({
    id: 'session.delete',
    method: 'delete',
    path: '/session',
    service: 'gateway',
    tags,
    summary: 'Sign out (ends the cookie session)',
    access: 'authenticated',
    responses: { 204: { description: 'Signed out', schema: null } },
  }),
  defineEndpoint({
    id: 'session.token.create',
    method: 'post',
    path: '/session/token',
    service: 'gateway',
    tags,
    summary: 'Issue a bearer token for the caller (form or JSON: expiration, scope); answers the token as text',
    description:
      'Use it as `Authorization: Bearer <token>` or `/api/socket?token=<token>`. It is stored hashed and can be revoked. ' +
      'An impersonation session (GET /session/{id}) cannot issue one (403).',
    access: 'authenticated',
    request: { body: TokenRequest.prefault({}) },
    responses: { 200: { description: 'The token', schema: z.string(), contentType: 'text/plain' } },
  }),
  defineEndpoint({
    id: 'session.token.revoke',
    method: 'post',
    path: '/session/token/revoke',
    service: 'gateway',
    tags,
    summary: "Revoke a bearer token (form or JSON: token); administrators may revoke anyone's",
    access: 'authenticated',
    request: { body: TokenRevoke },
    responses: { 204: { description: 'Revoked', schema: null } },
  }),
  defineEndpoint({
    id: 'session.openid.auth',
    method: 'get',
    path: '/session/openid/auth',
    service: 'gateway',
    tags,
    summary: 'Start an OpenID Connect sign-in: 303 to the identity provider (400 when not configured)',
    description: 'Authorization code flow with PKCE (S256); state and nonce are single-use and checked on the callback.',
    access: 'public',
    responses: { 303: { description: 'Redirect to the identity provider', schema: null } },
  }),
  defineEndpoint({
    id: 'session.openid.callback',
    method: 'get',
    path: '/session/openid/callback',
    service: 'gateway',
    tags,
    summary: "The identity provider's redirect: signs the user in, sets the session cookie and redirects (303)",
    description:
      'Claims map to a user (by subject, then email) and roles (the configured role claim and mapping). An unknown, ' +
      'expired or replayed state answers 400; a provider error or a failed code exchange 401; no role 403.',
    access: 'public',
    request: { query: OpenIdCallbackQuery },
    responses: { 303: { description: 'Redirect to the console', schema: null } },
  }),
  defineEndpoint({
    id: 'session.impersonate',
    method: 'get',
    path: '/session/{id}',
    service: 'gateway',
    tags,
    summary: "Impersonate user {id} (administrators): the caller's session becomes a new session of that user",
    description:
      'Audited (session.impersonate: who impersonated whom). The new session records the administrator; DELETE /session ' +
      'ends it and does not return to the administrator, who signs in again. The session ends too when the administrator ' +
      'is disabled or loses the admin role. An unknown user answers 404, a disabled or expired one 403. With the session ' +
      "cookie, this GET (it changes the session) needs proof of its origin: Sec-Fetch-Site same-origin, the gateway's " +
      'own Origin, or the header X-Requested-With.',
    access: ['admin'],
    request: { params: idParam('user') },
    responses: { 200: { description: 'The impersonated user', schema: User } },
  }),
] as const;
