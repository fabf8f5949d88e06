import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface TestAccount {
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
  company_id?: number;
}

export const CLIENT = { id: 'corridor-gateway', secret: 'corridor-test-client-secret' };

/**
 * A real OpenID Connect provider (npm oidc-provider) on an ephemeral port, with its development
 * sign-in pages (any login is accepted; the login names the account). PKCE is required.
 */
export async function startProvider(
  redirectUri: string,
  accounts: Record<string, TestAccount>,
): Promise<{ issuer: string; close(): Promise<void> }> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'], company: ['company_id'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    async findAccount(_ctx, id) {
      const account = accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Plays the browser at the provider: follows redirects from the authorization URL, signs in as
 * `login` and consents, and returns the URL the provider sends back to the gateway's callback.
 */
export async function signInAtProvider(authorizationUrl: string, login: string, redirectUri: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const remember = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
  };
  let url = new URL(authorizationUrl);
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    if (url.toString().startsWith(redirectUri)) return url;
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader() },
    });
    remember(res);
    init = {};
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const html = await res.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || !prompt) throw new Error(`provider answered ${res.status}: ${html.slice(0, 300)}`);
    url = new URL(action.replace(/&amp;/g, '&'), url);
    const body = new URLSearchParams(prompt === 'login' ? { prompt, login, password: 'any' } : { prompt });
    init = { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } };
  }
  throw new Error('too many redirects at the provider');
}
