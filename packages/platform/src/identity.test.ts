import { describe, expect, it } from 'vitest';
import { SignJWT, decodeProtectedHeader } from 'jose';
import { AppError } from './errors';
import { IDENTITY_MAX_TTL_SECONDS, checkAccess, companyScope, keyId, signIdentity, verifyIdentity, type Identity } from './identity';

const secret = 'a-secret-of-sufficient-length';
const user: Identity = { userId: 5, email: 'u@x', name: 'U', roles: ['company_user'], companyId: 101 };

describe('internal identity tokens', () => {
  const at = (secret: string, claims: Record<string, unknown>, header: Record<string, unknown> = { alg: 'HS256', kid: keyId(secret) }) => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...user, ...claims })
      .setProtectedHeader(header as { alg: string })
      .setIssuer('corridor-gateway')
      .setAudience((claims.aud as string | undefined) ?? 'ops-api')
      .setIssuedAt((claims.iat as number | undefined) ?? now)
      .setExpirationTime((claims.exp as number | undefined) ?? now + 60)
      .sign(new TextEncoder().encode(secret));
  };

  it('round-trips an identity for its service', async () => {
    expect(await verifyIdentity(await signIdentity(user, secret, 'ops-api'), secret, 'ops-api')).toEqual(user);
  });

  it('rejects a wrong secret, a tampered token and an expired one', async () => {
    const token = await signIdentity(user, secret, 'ops-api');
    await expect(verifyIdentity(token, 'another-secret-of-length', 'ops-api')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), roles: ['admin'] })).toString(
      'base64url',
    );
    await expect(verifyIdentity(`${h}.${forged}.${s}`, secret, 'ops-api')).rejects.toBeInstanceOf(AppError);
    const past = Math.floor(Date.now() / 1000) - 120;
    await expect(verifyIdentity(await at(secret, { iat: past, exp: past + 60 }), secret, 'ops-api')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('refuses a token for another service (audience)', async () => {
    const forJourney = await signIdentity(user, secret, 'journey');
    expect(await verifyIdentity(forJourney, secret, 'journey')).toEqual(user);
    await expect(verifyIdentity(forJourney, secret, 'ops-api')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    // the shared audience the gateway used to sign for every service is nobody's now
    await expect(verifyIdentity(await at(secret, { aud: 'corridor-services' }), secret, 'ops-api')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('refuses a long-lived token (the forged ten-year one) and one issued in the future, even when correctly signed', async () => {
    const now = Math.floor(Date.now() / 1000);
    await expect(verifyIdentity(await at(secret, { exp: now + 10 * 365 * 86400 }), secret, 'ops-api')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await expect(verifyIdentity(await at(secret, { exp: now + IDENTITY_MAX_TTL_SECONDS + 60 }), secret, 'ops-api')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await expect(verifyIdentity(await at(secret, { iat: now + 3600, exp: now + 3660 }), secret, 'ops-api')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    expect(await verifyIdentity(await at(secret, { exp: now + IDENTITY_MAX_TTL_SECONDS }), secret, 'ops-api')).toEqual(user);
  });

  it('names its key (kid) and refuses a token without one or with an unknown one', async () => {
    const token = await signIdentity(user, secret, 'ops-api');
    expect(decodeProtectedHeader(token).kid).toBe(keyId(secret));
    expect(keyId(secret)).not.toContain(secret.slice(0, 8));
    await expect(verifyIdentity(await at(secret, {}, { alg: 'HS256' }), secret, 'ops-api')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await expect(verifyIdentity(await at(secret, {}, { alg: 'HS256', kid: 'somebody-else' }), secret, 'ops-api')).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('accepts the current and the previous key during a rotation, and neither after', async () => {
    const next = 'the-next-secret-of-sufficient-length';
    const rotating = { current: next, previous: secret };
    const old = await signIdentity(user, secret, 'geofence');
    const fresh = await signIdentity(user, rotating, 'geofence');
    expect(decodeProtectedHeader(fresh).kid).toBe(keyId(next));
    expect(await verifyIdentity(old, rotating, 'geofence')).toEqual(user);
    expect(await verifyIdentity(fresh, rotating, 'geofence')).toEqual(user);
    // rotation done: the previous key is gone
    await expect(verifyIdentity(old, next, 'geofence')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await verifyIdentity(fresh, next, 'geofence')).toEqual(user);
  });
});

describe('access rules', () => {
  it('enforces public / authenticated / role lists', () => {
    expect(() => checkAccess('public', undefined)).not.toThrow();
    expect(() => checkAccess('authenticated', undefined)).toThrow(expect.objectContaining({ code: 'UNAUTHENTICATED' }));
    expect(() => checkAccess('authenticated', user)).not.toThrow();
    expect(() => checkAccess(['dispatcher'], user)).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(() => checkAccess(['dispatcher', 'company_user'], user)).not.toThrow();
    expect(() => checkAccess(['dispatcher'], { ...user, roles: ['admin'] })).not.toThrow();
  });

  it('limits company roles to their company and lets staff see all', () => {
    expect(companyScope(user)).toBe(101);
    expect(companyScope({ ...user, companyId: null })).toBe(-1);
    expect(companyScope({ ...user, roles: ['association_analyst'], companyId: null })).toBeUndefined();
    expect(companyScope({ ...user, roles: ['admin'] })).toBeUndefined();
    expect(companyScope({ ...user, roles: ['dispatcher'], companyId: null })).toBeUndefined();
    expect(companyScope({ ...user, roles: ['dispatcher'], companyId: 101 })).toBe(101);
  });
});
