import { describe, expect, it } from 'vitest';
import { mapClaims, type ClaimSettings } from './claims';

const settings: ClaimSettings = {
  roleClaim: 'groups',
  roleMap: { 'corridor-ops': 'dispatcher', 'kpa-admins': 'admin' },
  companyClaim: 'company_id',
};
const ISS = 'https://id.example.test';

describe('mapClaims', () => {
  it('maps groups through the role map and keeps role names as they are', () => {
    const m = mapClaims(
      ISS,
      { sub: 'u1', email: 'a@b.test', name: 'Amina', groups: ['corridor-ops', 'association_analyst', 'unrelated'], company_id: '101' },
      settings,
    );
    expect(m).toEqual({
      subject: `${ISS}|u1`,
      email: 'a@b.test',
      name: 'Amina',
      roles: ['dispatcher', 'association_analyst'],
      companyId: 101,
    });
  });

  it('reads a nested claim path and a space-separated string', () => {
    const m = mapClaims(
      ISS,
      { sub: 'u2', email: 'k@b.test', realm_access: { roles: 'kpa-admins company_user' } },
      { ...settings, roleClaim: 'realm_access.roles' },
    );
    expect(m.roles).toEqual(['admin', 'company_user']);
    expect(m.companyId).toBeUndefined();
    expect(m.name).toBe('k@b.test');
  });

  it('never grants the device role from a claim', () => {
    expect(mapClaims(ISS, { sub: 'u3', email: 'd@b.test', groups: ['device'] }, settings).roles).toEqual([]);
  });

  it('refuses accounts without an email, with an unverified one, or with a bad company claim', () => {
    expect(() => mapClaims(ISS, { sub: 'u4' }, settings)).toThrow(/no email/);
    expect(() => mapClaims(ISS, { sub: 'u4', email: 'x@b.test', email_verified: false }, settings)).toThrow(/not verified/);
    expect(() => mapClaims(ISS, { sub: 'u4', email: 'x@b.test', company_id: 'acme' }, settings)).toThrow(/company/);
    expect(() => mapClaims(ISS, { email: 'x@b.test' }, settings)).toThrow(/subject/);
  });
});
