import type { TestAccount } from '@corridor/gateway/test/oidc-provider';

/** What the browser tests know of the stack's OpenID sign-in. */
export interface OpenIdStack {
  /** The gateway's host name in the redirect address (a browser maps it to the gateway's port). */
  host: string;
  issuer: string;
}

/**
 * The stack's OpenID settings for the browser tests: the provider's one account here is a
 * dispatcher of the transit company's staff, by its group. The host is under .localhost, which
 * Chromium treats as a secure context, so the gateway's Secure session cookie is kept on http.
 */
export const OPENID = {
  host: 'corridor.localhost',
  get redirectUri(): string {
    return `http://${this.host}/api/session/openid/callback`;
  },
  roleMap: 'corridor-dispatch=dispatcher',
  accounts: {
    wanjiru: { email: 'wanjiru.kamau@transit.test', email_verified: true, name: 'Wanjiru Kamau', groups: ['corridor-dispatch'] },
  } satisfies Record<string, TestAccount>,
} as const;

/** Chromium's flag that sends the stack's OpenID host name to the gateway at `baseUrl`. */
export const mapHostTo = (host: string, baseUrl: string): string => `--host-resolver-rules=MAP ${host} ${new URL(baseUrl).host}`;
