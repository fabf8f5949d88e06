import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '@corridor/platform';
import { GatewayConfig, openIdSettings } from './config';

const problems = (env: Record<string, string>) => {
  try {
    parseConfig(GatewayConfig, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems.map((p) => p.variable);
    throw err;
  }
  return [];
};

describe('GatewayConfig', () => {
  it('has working defaults and no OpenID unless configured', () => {
    const c = parseConfig(GatewayConfig, {});
    expect(c).toMatchObject({
      PORT: 8082,
      COOKIE_SECURE: true,
      SESSION_TTL_SECONDS: 86400,
      LOGIN_MAX_FAILURES: 5,
      PASSWORD_HASH_COST: 15,
      SOCKET_KEEPALIVE_MS: 55000,
    });
    expect(openIdSettings(c)).toBeUndefined();
  });

  it('names every bad variable', () => {
    expect(
      problems({
        COOKIE_SECRET: 'short',
        LOGIN_MAX_FAILURES: '0',
        CONSOLE_ORIGIN: 'not a url',
        PASSWORD_HASH_COST: '40',
        COOKIE_SECURE: 'maybe',
      }).sort(),
    ).toEqual(['CONSOLE_ORIGIN.0', 'COOKIE_SECRET', 'COOKIE_SECURE', 'LOGIN_MAX_FAILURES', 'PASSWORD_HASH_COST']);
  });

  it('requires the OpenID settings together and checks the role map', () => {
    expect(problems({ OIDC_ISSUER: 'https://id.example.test' }).sort()).toEqual(['OIDC_CLIENT_ID', 'OIDC_REDIRECT_URI']);
    expect(problems({ OIDC_ROLE_MAP: 'ops=dispatcher,bosses=overlord' })).toEqual(['OIDC_ROLE_MAP']);
    const c = parseConfig(GatewayConfig, {
      OIDC_ISSUER: 'https://id.example.test',
      OIDC_CLIENT_ID: 'corridor',
      OIDC_REDIRECT_URI: 'https://corridor.test/api/session/openid/callback',
      OIDC_ROLE_MAP: 'ops=dispatcher, kpa admins = admin',
      CONSOLE_ORIGIN: 'https://console.corridor.test/, http://localhost:5173',
    });
    expect(c.OIDC_ROLE_MAP).toEqual({ ops: 'dispatcher', 'kpa admins': 'admin' });
    expect(c.CONSOLE_ORIGIN).toEqual(['https://console.corridor.test', 'http://localhost:5173']);
    expect(openIdSettings(c)).toMatchObject({ issuer: 'https://id.example.test', clientId: 'corridor' });
  });

  it('refuses the development secrets and published examples in production', () => {
    expect(problems({ NODE_ENV: 'production' }).sort()).toEqual(['ADMIN_PASSWORD', 'COOKIE_SECRET', 'INTERNAL_TOKEN_SECRET']);
    const internal = { INTERNAL_TOKEN_SECRET: 'y'.repeat(40) };
    expect(problems({ NODE_ENV: 'production', ...internal, COOKIE_SECRET: 'x'.repeat(40), ADMIN_PASSWORD: 'a-real-password' })).toEqual([]);
    // the examples of docker-compose.yml and deploy/k8s/secret-example
    expect(
      problems({
        NODE_ENV: 'production',
        ...internal,
        COOKIE_SECRET: 'corridor-compose-cookie-secret-change-me-0123456789',
        ADMIN_PASSWORD: 'compose-admin-change-me',
      }).sort(),
    ).toEqual(['ADMIN_PASSWORD', 'COOKIE_SECRET']);
  });
});
