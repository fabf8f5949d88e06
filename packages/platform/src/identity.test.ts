import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { AppError } from './errors';
import { checkAccess, companyScope, signIdentity, verifyIdentity, type Identity } from './identity';

const secret = 'a-secret-of-sufficient-length';
const user: Identity = { userId: 5, email: 'u@x', name: 'U', roles: ['company_user'], companyId: 101 };

describe('internal identity tokens', () => {
  it('round-trips an identity', async () => {
    expect(await verifyIdentity(await signIdentity(user, secret), secret)).toEqual(user);
  });

  it('rejects a wrong secret, a tampered token and an expired one', async () => {
    const token = await signIdentity(user, secret);
    await expect(verifyIdentity(token, 'another-secret-of-length')).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    const [h, p, s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), roles: ['admin'] })).toString('base64url');
    await expect(verifyIdentity(`${h}.${forged}.${s}`, secret)).rejects.toBeInstanceOf(AppError);
    const expired = await new SignJWT({ ...user }).setProtectedHeader({ alg: 'HS256' }).setIssuer('corridor-gateway').setAudience('corridor-services')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 120).setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(new TextEncoder().encode(secret));
    await expect(verifyIdentity(expired, secret)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
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
