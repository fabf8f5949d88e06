import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { GatewayConfig } from '@corridor/gateway';
import { build as buildGeofence, GeofenceConfig } from '@corridor/geofence';
import { build as buildIngest, IngestConfig } from '@corridor/ingest';
import { build as buildJourney, JourneyConfig } from '@corridor/journey';
import { build as buildOpsApi, OpsApiConfig } from '@corridor/ops-api';
import {
  ConfigError,
  IDENTITY_HEADER,
  internalKeys,
  keyId,
  parseConfig,
  signIdentity,
  type App,
  type InternalKeys,
} from '@corridor/platform';
import { createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { testUsers } from '@corridor/platform/testing/identity';

/**
 * Issue 11: with the published default INTERNAL_TOKEN_SECRET a forged admin identity (ten-year
 * expiry) was accepted by ops-api, journey, geofence and ingest directly. Now no service starts in
 * production with that secret (or none), and each refuses such a token (and one for another service)
 * while accepting the gateway's own. Embedded adapters: the identity check does not touch them.
 */
const OLD_DEFAULT = 'corridor-dev-internal-secret-change-me';
const configs = {
  'ops-api': OpsApiConfig,
  journey: JourneyConfig,
  geofence: GeofenceConfig,
  ingest: IngestConfig,
  gateway: GatewayConfig,
} as const;
const production = { NODE_ENV: 'production', COOKIE_SECRET: randomBytes(32).toString('hex'), ADMIN_PASSWORD: 'a-real-admin-password' };

/** An admin identity as the attacker forged it: the old default secret, ten years, the old shared audience. */
async function forged(secret: string, audience: string, kid?: string): Promise<string> {
  return new SignJWT({ ...testUsers.admin })
    .setProtectedHeader({ alg: 'HS256', ...(kid ? { kid } : {}) })
    .setIssuer('corridor-gateway')
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime('3650d')
    .sign(new TextEncoder().encode(secret));
}

describe('service configuration outside development', () => {
  it.each(Object.keys(configs) as (keyof typeof configs)[])(
    '%s refuses to start without a secret, with a published one or a short one',
    (name) => {
      const schema = configs[name];
      const problem = (env: Record<string, string>) => {
        try {
          parseConfig(schema, { ...production, ...env });
          return undefined;
        } catch (err) {
          expect(err).toBeInstanceOf(ConfigError);
          return (err as ConfigError).problems.find((p) => p.variable.startsWith('INTERNAL_TOKEN_SECRET'));
        }
      };
      expect(problem({})?.message).toMatch(/required/);
      expect(problem({ INTERNAL_TOKEN_SECRET: OLD_DEFAULT })?.message).toMatch(/published/);
      expect(problem({ INTERNAL_TOKEN_SECRET: 'corridor-compose-internal-secret-change-me' })?.message).toMatch(/published/);
      expect(problem({ INTERNAL_TOKEN_SECRET: 'short-but-sixteen-plus' })?.message).toMatch(/32 characters/);
      expect(
        problem({ INTERNAL_TOKEN_SECRET: randomBytes(32).toString('base64url'), INTERNAL_TOKEN_SECRET_PREVIOUS: OLD_DEFAULT })?.variable,
      ).toBe('INTERNAL_TOKEN_SECRET_PREVIOUS');
      expect(problem({ INTERNAL_TOKEN_SECRET: randomBytes(32).toString('base64url') })).toBeUndefined();
    },
  );

  it('development and tests without a secret get a random one per process (the one-process stack shares it)', () => {
    const a = parseConfig(OpsApiConfig, {});
    const b = parseConfig(JourneyConfig, { NODE_ENV: 'test' });
    expect(a.INTERNAL_TOKEN_SECRET).toBe(b.INTERNAL_TOKEN_SECRET);
    expect(a.INTERNAL_TOKEN_SECRET).not.toBe(OLD_DEFAULT);
    expect(a.INTERNAL_TOKEN_SECRET.length).toBeGreaterThanOrEqual(32);
  });
});

describe('forged identities at the services', () => {
  let adapters: TestAdapters;
  const apps: Partial<Record<'ops-api' | 'journey' | 'geofence' | 'ingest', { app: App; close(): Promise<void> }>> = {};
  const secret = randomBytes(32).toString('base64url');
  let keys: InternalKeys;
  // a call on each service that needs an identity, and what it answers an administrator
  const unknownDevice = { positions: [{ uniqueId: 'no-such-device', fixTime: new Date().toISOString(), latitude: -1.3, longitude: 36.8 }] };
  const probes = {
    'ops-api': { method: 'GET', url: '/api/devices', ok: 200 },
    journey: { method: 'GET', url: '/api/journey/active', ok: 200 },
    geofence: { method: 'GET', url: '/api/geofences', ok: 200 },
    // an unknown device answers 404 once the identity passed (the reference check runs after it)
    ingest: { method: 'POST', url: '/api/positions', payload: unknownDevice, ok: 404 },
  } as const;

  beforeAll(async () => {
    keys = internalKeys(parseConfig(OpsApiConfig, { ...production, INTERNAL_TOKEN_SECRET: secret }));
    adapters = await createTestAdapters('embedded');
    const common = { ...adapters, logger: adapters.logger, identitySecret: keys };
    apps['ops-api'] = await buildOpsApi(common);
    apps.journey = await buildJourney(common, { sweepIntervalMs: 0 });
    apps.geofence = await buildGeofence(common);
    apps.ingest = await buildIngest(common);
  }, 120000);

  afterAll(async () => {
    for (const svc of Object.values(apps)) await svc?.close();
    await adapters?.close();
  });

  const call = (name: keyof typeof probes, token: string) => {
    const { method, url } = probes[name];
    return apps[name]!.app.inject({
      method,
      url,
      headers: { [IDENTITY_HEADER]: token },
      ...('payload' in probes[name] ? { payload: probes.ingest.payload } : {}),
    });
  };

  it.each(Object.keys(probes) as (keyof typeof probes)[])(
    "%s refuses an admin forged with the old default secret and accepts the gateway's token",
    async (name) => {
      const oldStyle = await call(name, await forged(OLD_DEFAULT, 'corridor-services'));
      expect(oldStyle.statusCode, oldStyle.body).toBe(401);
      expect(oldStyle.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
      const ownAudience = await call(name, await forged(OLD_DEFAULT, name, keyId(OLD_DEFAULT)));
      expect(ownAudience.statusCode).toBe(401);
      // the right secret is not enough for a ten-year token either
      const longLived = await call(name, await forged(secret, name, keyId(secret)));
      expect(longLived.statusCode).toBe(401);
      // a token the gateway signed for another service is refused; one for this service passes
      const other = name === 'journey' ? 'geofence' : 'journey';
      expect((await call(name, await signIdentity(testUsers.admin, keys, other))).statusCode).toBe(401);
      const ok = await call(name, await signIdentity(testUsers.admin, keys, name));
      expect(ok.statusCode, ok.body).toBe(probes[name].ok);
    },
  );
});
