import * as oidc from 'openid-client';
import { AppError, type Logger } from '@corridor/platform';

export interface OpenIdSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
  scope: string;
}

export interface AuthorizationStart {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

const isLoopbackHttp = (u: URL): boolean => u.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);

/**
 * The OpenID Connect relying party (openid-client): discovery once (retried after a failure),
 * authorization code with PKCE S256, state and nonce; the code exchange checks all three and the
 * ID token. Plain http is allowed for a loopback issuer only (development and tests).
 */
export function openIdClient(s: OpenIdSettings, logger: Logger) {
  let configuration: Promise<oidc.Configuration> | undefined;
  const issuer = new URL(s.issuer);

  function discover(): Promise<oidc.Configuration> {
    configuration ??= oidc
      .discovery(issuer, s.clientId, undefined, s.clientSecret ? oidc.ClientSecretBasic(s.clientSecret) : oidc.None(), {
        timeout: 5,
        ...(isLoopbackHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .catch((err: unknown) => {
        configuration = undefined;
        logger.error({ err, issuer: s.issuer }, 'OpenID discovery failed');
        throw new AppError('UNAVAILABLE', 'The identity provider is unavailable', undefined, true);
      });
    return configuration;
  }

  return {
    issuer: s.issuer,
    async start(): Promise<AuthorizationStart> {
      const config = await discover();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: s.redirectUri,
        scope: s.scope,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url, state, nonce, codeVerifier };
    },
    /** Exchanges the code from the callback URL; returns the ID token claims merged with userinfo. */
    async finish(callbackQuery: string, checks: { state: string; nonce: string; codeVerifier: string }): Promise<Record<string, unknown>> {
      const config = await discover();
      const current = new URL(s.redirectUri);
      current.search = callbackQuery;
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        // ResponseBodyError carries the provider's OAuth error (invalid_grant when PKCE fails, ...)
        const e = err as { error?: unknown; error_description?: unknown; message?: string };
        const detail =
          typeof e.error === 'string'
            ? `${e.error}${typeof e.error_description === 'string' ? ` (${e.error_description})` : ''}`
            : (e.message ?? 'code exchange refused');
        logger.warn({ detail }, 'OpenID code exchange failed');
        throw new AppError('UNAUTHENTICATED', `OpenID sign-in failed: ${detail}`);
      }
      const idClaims = tokens.claims() as Record<string, unknown> | undefined;
      if (!idClaims) throw new AppError('UNAUTHENTICATED', 'OpenID sign-in failed: no ID token');
      if (!config.serverMetadata().userinfo_endpoint) return idClaims;
      try {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub as string);
        return { ...info, ...idClaims };
      } catch (err) {
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'OpenID userinfo failed; using the ID token claims');
        return idClaims;
      }
    },
  };
}
export type OpenIdClient = ReturnType<typeof openIdClient>;
