import { trackingWriters, type Role, type User, type UserCreate, type UserUpdate } from '@corridor/contracts';
import type { Identity } from '@corridor/platform';
import type { NewUserRow, UserRow } from '../db/schema';

/** The role a user gets when a Traccar client creates one without roles and without `administrator`: the least. */
const LEAST_ROLE: Role = 'company_user';

/** Roles that change tracking resources (devices, geofences, rules); the other roles only read them. */
const writers: readonly Role[] = [...trackingWriters, 'association_officer'];

type Flag = 'readonly' | 'deviceReadonly' | 'limitCommands';
/**
 * Traccar's restriction flags as the roles imply them: without a writer role a user is readonly;
 * without admin or dispatcher they may not change devices (deviceReadonly) nor send commands
 * (limitCommands). A user's effective flag is this or the stored one.
 */
function impliedFlags(roles: readonly Role[]): Record<Flag, boolean> {
  const devices = roles.some((r) => (trackingWriters as readonly Role[]).includes(r));
  return { readonly: !roles.some((r) => writers.includes(r)), deviceReadonly: !devices, limitCommands: !devices };
}

const sameRoles = (a: readonly Role[], b: readonly Role[]): boolean => a.length === b.length && a.every((r) => b.includes(r));

/**
 * The roles a create or update asks for: `roles` when given (and not empty); else a new user's from
 * Traccar's `administrator` (admin, or the least role), an existing user's kept. `administrator`
 * adds or removes admin when the roles are not sent or are the stored ones: a Traccar client
 * echoes the roles it read and changes only the flag, a Corridor client changes the roles and
 * echoes the flag.
 */
function resolvedRoles(input: { roles?: Role[]; administrator?: boolean }, before?: { roles: Role[] }): Role[] {
  const given = input.roles?.length ? input.roles : undefined;
  if (given && !(before && sameRoles(given, before.roles))) return [...given];
  let roles: Role[] = given ? [...given] : before ? [...before.roles] : input.administrator ? ['admin'] : [LEAST_ROLE];
  if (input.administrator !== undefined && input.administrator !== roles.includes('admin')) {
    roles = input.administrator ? ['admin', ...roles] : roles.filter((r) => r !== 'admin');
  }
  return roles.length ? roles : [LEAST_ROLE];
}

/** The API shape of a stored user (the password and the TOTP key are never returned; totpEnabled says whether there is a key). */
export function toUser(r: UserRow): User {
  const implied = impliedFlags(r.roles);
  return {
    id: r.id,
    name: r.name,
    login: r.login,
    email: r.email,
    phone: r.phone,
    readonly: r.readonly || implied.readonly,
    administrator: r.roles.includes('admin'),
    map: r.map,
    latitude: r.latitude,
    longitude: r.longitude,
    zoom: r.zoom,
    coordinateFormat: r.coordinateFormat,
    disabled: r.disabled,
    expirationTime: r.expirationTime?.toISOString() ?? null,
    deviceLimit: r.deviceLimit,
    userLimit: r.userLimit,
    deviceReadonly: r.deviceReadonly || implied.deviceReadonly,
    limitCommands: r.limitCommands || implied.limitCommands,
    disableReports: r.disableReports,
    fixedEmail: r.fixedEmail,
    poiLayer: r.poiLayer,
    roles: r.roles,
    companyId: r.companyId,
    totpEnabled: r.totpKey !== null,
    attributes: r.attributes,
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

/**
 * Column values from a create or update body (the password is hashed separately; `before`: the
 * stored user of an update). The roles as resolvedRoles says; a restriction flag is stored only
 * where the roles do not imply it already, so a client echoing the flags it read changes nothing.
 */
export function userValues(input: UserCreate | UserUpdate, before?: UserRow): Omit<NewUserRow, 'passwordHash'> {
  const { password: _password, expirationTime, email, administrator: _admin, roles: _roles, ...fields } = input;
  const { currentPassword: _current, ...rest } = fields as typeof fields & { currentPassword?: string };
  const roles = resolvedRoles(input, before);
  const implied = impliedFlags(roles);
  return {
    ...rest,
    roles,
    email: email.trim(),
    expirationTime: expirationTime ? new Date(expirationTime) : null,
    readonly: rest.readonly && !implied.readonly,
    deviceReadonly: rest.deviceReadonly && !implied.deviceReadonly,
    limitCommands: rest.limitCommands && !implied.limitCommands,
  };
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
  for (const k of ['disabled', 'deviceLimit', 'userLimit', 'disableReports', 'fixedEmail'] as const) {
    if (!same(before[k], after[k])) changed.push(k);
  }
  // the flags as a client sees them (stored or implied by the roles); with the roles changed, theirs is the change
  if (!changed.includes('roles')) {
    const implied = impliedFlags(before.roles);
    for (const k of ['readonly', 'deviceReadonly', 'limitCommands'] as const) {
      if ((before[k] || implied[k]) !== (Boolean(after[k]) || implied[k])) changed.push(k);
    }
  }
  return changed;
}
