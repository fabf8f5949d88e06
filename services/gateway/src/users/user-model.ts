import type { User, UserCreate, UserUpdate } from '@corridor/contracts';
import type { Identity } from '@corridor/platform';
import type { NewUserRow, UserRow } from '../db/schema';

/** The API shape of a stored user (the password and the TOTP key are never returned; totpEnabled says whether there is a key). */
export function toUser(r: UserRow): User {
  return {
    id: r.id, name: r.name, login: r.login, email: r.email, phone: r.phone, readonly: r.readonly,
    administrator: r.roles.includes('admin'), map: r.map, latitude: r.latitude, longitude: r.longitude, zoom: r.zoom,
    coordinateFormat: r.coordinateFormat, disabled: r.disabled, expirationTime: r.expirationTime?.toISOString() ?? null,
    deviceLimit: r.deviceLimit, userLimit: r.userLimit, deviceReadonly: r.deviceReadonly, limitCommands: r.limitCommands,
    disableReports: r.disableReports, fixedEmail: r.fixedEmail, poiLayer: r.poiLayer, roles: r.roles, companyId: r.companyId,
    password: null, totpEnabled: r.totpKey !== null, attributes: r.attributes,
  };
}

/** What the gateway vouches for when it forwards a request of this user. */
export function identityOf(r: UserRow): Identity {
  return { userId: r.id, email: r.email, name: r.name, roles: r.roles, companyId: r.companyId };
}

/** Why this user may not sign in now, or undefined when they may. */
export function inactiveReason(r: UserRow, now: Date): string | undefined {
  if (r.disabled) return 'This account is disabled';
  if (r.expirationTime && r.expirationTime.getTime() <= now.getTime()) return 'This account has expired';
  return undefined;
}

/** Column values from a create or update body (the password is hashed separately). */
export function userValues(input: UserCreate | UserUpdate): Omit<NewUserRow, 'passwordHash'> {
  const { password: _password, expirationTime, email, ...fields } = input;
  const { currentPassword: _current, ...rest } = fields as typeof fields & { currentPassword?: string };
  return { ...rest, email: email.trim(), expirationTime: expirationTime ? new Date(expirationTime) : null };
}

/**
 * Fields only an administrator may change. A user editing themselves may change the rest (name,
 * phone, map settings, attributes, password), and their email unless it is fixed.
 */
export function privilegedChanges(before: UserRow, after: Omit<NewUserRow, 'passwordHash'>): string[] {
  const changed: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  if (!same([...before.roles].sort(), [...(after.roles ?? [])].sort())) changed.push('roles');
  if (!same(before.companyId, after.companyId)) changed.push('companyId');
  if (!same(before.expirationTime?.getTime(), after.expirationTime?.getTime())) changed.push('expirationTime');
  if (before.fixedEmail && before.email.toLowerCase() !== after.email.toLowerCase()) changed.push('email');
  if (!same(before.login, after.login)) changed.push('login');
  for (const k of ['disabled', 'readonly', 'deviceLimit', 'userLimit', 'deviceReadonly', 'limitCommands', 'disableReports', 'fixedEmail'] as const) {
    if (!same(before[k], after[k])) changed.push(k);
  }
  return changed;
}
