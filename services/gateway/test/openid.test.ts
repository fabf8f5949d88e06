import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerInfo, User } from '@corridor/contracts';
import type { z } from 'zod';
import { createUser, sessionCookie, startGateway, type Harness } from './harness';
import { CLIENT, signInAtProvider, startProvider } from './oidc-provider';

/**
 * OpenID Connect sign-in against a real provider (oidc-provider) started here: authorization code
 * with PKCE, state and nonce; claims mapped to users and roles; replayed and forged states.
 */
const REDIRECT = 'http://gateway.test/api/session/openid/callback';
let h: Harness;
let idp: Awaited<ReturnType<typeof startProvider>>;
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);

beforeAll(async () => {
  idp = await startProvider(REDIRECT, {
    amina: {
      email: 'amina@transit.test',
      email_verified: true,
      name: 'Amina Odhiambo',
      groups: ['corridor-dispatch', 'staff'],
      company_id: 101,
    },
    juma: { email: 'juma@kpa.test', name: 'Juma', groups: ['kpa-admins'] },
    nobody: { email: 'nobody@elsewhere.test', groups: ['unrelated'] },
    existing: { email: 'linked@corridor.test', groups: ['association_officer'] },
  });
  h = await startGateway({
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: CLIENT.id,
      OIDC_CLIENT_SECRET: CLIENT.secret,
      OIDC_REDIRECT_URI: REDIRECT,
      OIDC_SCOPE: 'openid email profile groups company',
      OIDC_ROLE_MAP: 'corridor-dispatch=dispatcher,kpa-admins=admin',
      OIDC_SUCCESS_REDIRECT: '/console/',
    },
  });
});
afterAll(async () => {
  await h?.close();
  await idp?.close();
});

async function startFlow(): Promise<{ location: string; state: string }> {
  const res = await inject({ method: 'GET', url: '/api/session/openid/auth' });
  expect(res.statusCode, res.body).toBe(303);
  const location = String(res.headers.location);
  const u = new URL(location);
  expect(u.origin).toBe(idp.issuer);
  expect(u.searchParams.get('code_challenge_method')).toBe('S256');
  expect(u.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
  expect(u.searchParams.get('nonce')).toBeTruthy();
  return { location, state: u.searchParams.get('state')! };
}

const callback = (u: URL) => inject({ method: 'GET', url: `/api/session/openid/callback${u.search}` });

describe('OpenID Connect sign-in', () => {
  it('advertises itself in /api/server', async () => {
    const server = (await inject({ method: 'GET', url: '/api/server' })).json<z.infer<typeof ServerInfo>>();
    expect(server.openIdEnabled).toBe(true);
  });

  it('signs a new user in: roles from the mapped groups, company from its claim, a session cookie, 303 to the console', async () => {
    const { location } = await startFlow();
    const back = await signInAtProvider(location, 'amina', REDIRECT);
    expect(back.searchParams.get('code')).toBeTruthy();
    const res = await callback(back);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/console/');
    const me = await inject({ method: 'GET', url: '/api/session', headers: { cookie: sessionCookie(res) } });
    expect(me.statusCode).toBe(200);
    expect(me.json<User>()).toMatchObject({ email: 'amina@transit.test', name: 'Amina Odhiambo', roles: ['dispatcher'], companyId: 101 });

    // the same account again finds the same user (by subject)
    const again = await callback(await signInAtProvider((await startFlow()).location, 'amina', REDIRECT));
    expect(again.statusCode).toBe(303);
    expect((await inject({ method: 'GET', url: '/api/session', headers: { cookie: sessionCookie(again) } })).json<User>().id).toBe(
      me.json<User>().id,
    );
  });

  it('refuses a replayed state (the callback URL used twice) and a forged one, with 400 naming state', async () => {
    const back = await signInAtProvider((await startFlow()).location, 'juma', REDIRECT);
    const first = await callback(back);
    expect(first.statusCode).toBe(303);
    const replay = await callback(back);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [{ in: 'querystring', path: 'state' }] } });
    expect(replay.headers['set-cookie']).toBeUndefined();
    const forged = new URL(back);
    forged.searchParams.set('state', 'made-up-state-value');
    expect((await callback(forged)).statusCode).toBe(400);
    const none = await inject({ method: 'GET', url: '/api/session/openid/callback?code=abc' });
    expect(none.statusCode).toBe(400);
  });

  it("refuses a code presented with another sign-in's state (PKCE verifier and state do not match): 401", async () => {
    const a = await signInAtProvider((await startFlow()).location, 'juma', REDIRECT);
    const b = await startFlow();
    const swapped = new URL(a);
    swapped.searchParams.set('state', b.state);
    const res = await callback(swapped);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect(res.json<{ error: { message: string } }>().error.message).toMatch(/invalid_grant|PKCE|code_verifier/i);
  });

  it('answers 401 when the provider reports an error, and consumes the state', async () => {
    const { state } = await startFlow();
    const res = await inject({
      method: 'GET',
      url: `/api/session/openid/callback?error=access_denied&error_description=End-User+aborted&state=${state}`,
    });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ error: { message: string } }>().error.message).toMatch(/access_denied/);
    expect((await inject({ method: 'GET', url: `/api/session/openid/callback?code=x&state=${state}` })).statusCode).toBe(400);
  });

  it('refuses an account the mapping grants no role (403) and creates nobody', async () => {
    const res = await callback(await signInAtProvider((await startFlow()).location, 'nobody', REDIRECT));
    expect(res.statusCode).toBe(403);
    const admin = await createUser(h, ['admin']);
    const token = (await h.gateway.tokens.issue(admin.id, { scope: 'read' }, { userId: admin.id, email: null })).token;
    const list = await inject({ method: 'GET', url: '/api/users?keyword=elsewhere', headers: { authorization: `Bearer ${token}` } });
    expect(list.json<User[]>()).toEqual([]);
  });

  it("links an existing user by email and takes the provider's roles", async () => {
    const u = await createUser(h, ['company_user'], 303, { email: 'linked@corridor.test' });
    const res = await callback(await signInAtProvider((await startFlow()).location, 'existing', REDIRECT));
    expect(res.statusCode, res.body).toBe(303);
    const me = (await inject({ method: 'GET', url: '/api/session', headers: { cookie: sessionCookie(res) } })).json<User>();
    expect(me).toMatchObject({ id: u.id, roles: ['association_officer'], companyId: 303 });
  });
});
