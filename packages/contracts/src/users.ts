import { z } from 'zod';
import { idParam, ref } from './references';
import { defineEndpoint } from './endpoint';
import { Attributes, IsoDateTime } from './common';
import { Role } from './roles';

/**
 * User, in Traccar's shape (id, name, login, email, phone, readonly, administrator, map, latitude,
 * longitude, zoom, coordinateFormat, disabled, expirationTime, deviceLimit, userLimit,
 * deviceReadonly, limitCommands, disableReports, fixedEmail, poiLayer, attributes; password is
 * write-only and never answered, as Traccar ignores it on read) plus Corridor's roles and company. `administrator` is
 * derived: true when the roles include admin.
 */
export const User = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    login: z.string().nullable(),
    email: z.string(),
    phone: z.string().nullable(),
    readonly: z.boolean(),
    administrator: z.boolean(),
    map: z.string().nullable(),
    latitude: z.number(),
    longitude: z.number(),
    zoom: z.number().int(),
    coordinateFormat: z.string().nullable(),
    disabled: z.boolean(),
    expirationTime: IsoDateTime.nullable(),
    deviceLimit: z.number().int().describe('-1 unlimited, 0 may not add devices, n a cap'),
    userLimit: z.number().int(),
    deviceReadonly: z.boolean(),
    limitCommands: z.boolean(),
    disableReports: z.boolean(),
    fixedEmail: z.boolean(),
    poiLayer: z.string().nullable(),
    roles: z.array(Role),
    companyId: z.number().int().nullable().describe('The company the user belongs to; null for platform and association staff'),
    totpEnabled: z
      .boolean()
      .describe(
        'True when the user has a confirmed TOTP second factor (Traccar keeps `totpKey` on the user; Corridor never returns the key)',
      ),
    attributes: Attributes,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

/** A password: 8 to 256 characters (hashed with scrypt, never stored or logged in clear). */
export const Password = z.string().min(8, 'at least 8 characters').max(256);

const userFields = {
  name: z.string().trim().min(1).max(128),
  login: z.string().trim().min(1).max(128).nullable().default(null),
  email: z.email().max(254),
  phone: z.string().max(32).nullable().default(null),
  readonly: z.boolean().default(false),
  map: z.string().max(64).nullable().default(null),
  latitude: z.number().min(-90).max(90).default(0),
  longitude: z.number().min(-180).max(180).default(0),
  zoom: z.number().int().min(0).max(22).default(0),
  coordinateFormat: z.string().max(32).nullable().default(null),
  disabled: z.boolean().default(false),
  expirationTime: IsoDateTime.nullable().default(null),
  deviceLimit: z.number().int().min(-1).max(1_000_000).default(-1),
  userLimit: z.number().int().min(-1).max(1_000_000).default(0),
  deviceReadonly: z.boolean().default(false),
  limitCommands: z.boolean().default(false),
  disableReports: z.boolean().default(false),
  fixedEmail: z.boolean().default(false),
  poiLayer: z.string().max(512).nullable().default(null),
  roles: z
    .array(Role)
    .max(Role.options.length)
    .refine((r) => new Set(r).size === r.length, 'roles must not repeat')
    .optional()
    .describe(
      "Corridor's roles. Traccar clients send none: then `administrator: true` gives admin, and otherwise a new user gets the least " +
        "role (company_user); an update without roles keeps the user's roles, with admin added or removed as `administrator` says.",
    ),
  administrator: z.boolean().optional().describe("Traccar's flag: read from the roles (admin); written only when roles are not sent"),
  companyId: ref('company', z.number().int().positive()).nullable().default(null),
  attributes: Attributes.default({}),
};

/** POST /users: a new user (the password is required). */
export const UserCreate = z.object({ ...userFields, password: Password }).meta({ id: 'UserCreate' });
export type UserCreate = z.infer<typeof UserCreate>;

/**
 * PUT /users/{id}: the whole user; a password given here replaces the old one. Changing one's own
 * password or email needs the current password (currentPassword, write-only); an administrator
 * setting another user's needs none (audited as user.update+password).
 */
export const UserUpdate = z
  .object({
    ...userFields,
    password: Password.nullable().optional(),
    currentPassword: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .describe('Write-only: your current password, required to change your own password or email'),
  })
  .meta({ id: 'UserUpdate' });
export type UserUpdate = z.infer<typeof UserUpdate>;

/**
 * A TOTP code (RFC 6238: six digits, 30 s steps). Traccar clients send it as a number, which loses
 * leading zeros, so 0 to 999999 and one to six digits are accepted and read as six digits.
 */
export const TotpCode = z
  .union([
    z
      .string()
      .trim()
      .regex(/^\d{1,6}$/, 'six digits'),
    z.number().int().min(0).max(999999),
  ])
  .transform((c) => String(c).padStart(6, '0'))
  .describe('The six-digit code the authenticator app shows');

export const TotpConfirm = z.object({ code: TotpCode }).meta({ id: 'TotpConfirm' });
export type TotpConfirm = z.infer<typeof TotpConfirm>;

/** Turning one's own second factor off: proven by a current code, or by the password when the authenticator is lost. */
export const TotpDisable = z
  .object({
    code: TotpCode.optional(),
    password: z.string().min(1).max(200).optional().describe('The current password, in place of a code'),
  })
  .refine((b) => (b.code === undefined) !== (b.password === undefined), { message: 'send either code or password', path: ['code'] })
  .meta({ id: 'TotpDisable' });
export type TotpDisable = z.infer<typeof TotpDisable>;

export const UsersQuery = z.object({
  keyword: z.string().max(100).optional().describe('Searches name, email and login'),
  companyId: ref('company', z.coerce.number().int().positive()).optional(),
  role: Role.optional(),
  disabled: z.stringbool().optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

export const PasswordResetRequest = z.object({ email: z.string().trim().min(1).max(254) }).meta({ id: 'PasswordResetRequest' });
export const PasswordUpdate = z.object({ token: z.string().min(16).max(256), password: Password }).meta({ id: 'PasswordUpdate' });

const tags = ['users'];
export const usersEndpoints = [
  defineEndpoint({
    id: 'users.list',
    method: 'get',
    path: '/users',
    service: 'gateway',
    tags,
    summary: 'List users (paginated; filter by keyword, company, role, disabled)',
    access: ['admin'],
    request: { query: UsersQuery },
    responses: { 200: { description: 'Users', schema: z.array(User) } },
  }),
  defineEndpoint({
    id: 'users.create',
    method: 'post',
    path: '/users',
    service: 'gateway',
    tags,
    summary: 'Create a user',
    access: ['admin'],
    request: { body: UserCreate },
    responses: { 200: { description: 'The created user', schema: User } },
  }),
  defineEndpoint({
    id: 'users.get',
    method: 'get',
    path: '/users/{id}',
    service: 'gateway',
    tags,
    summary: 'One user (administrators: any; others: themselves, else 404)',
    access: 'authenticated',
    request: { params: idParam('user') },
    responses: { 200: { description: 'The user', schema: User } },
  }),
  defineEndpoint({
    id: 'users.update',
    method: 'put',
    path: '/users/{id}',
    service: 'gateway',
    tags,
    summary: 'Replace a user',
    description:
      'Administrators may change any user. Other users may change only themselves and only their own settings ' +
      '(name, phone, map, position, zoom, formats, attributes, password); a change to roles, company, limits, ' +
      "flags or a fixed email answers 403. Changing one's own password or email needs currentPassword (missing: 400, wrong: 403); " +
      'a changed email is announced by mail to the old address, and ' +
      "a new password revokes the user's API tokens and ends their other sessions.",
    access: 'authenticated',
    request: { params: idParam('user'), body: UserUpdate },
    responses: { 200: { description: 'The updated user', schema: User } },
  }),
  defineEndpoint({
    id: 'users.delete',
    method: 'delete',
    path: '/users/{id}',
    service: 'gateway',
    tags,
    summary: 'Delete a user (the last administrator cannot be deleted: 409)',
    access: ['admin'],
    request: { params: idParam('user') },
    responses: { 204: { description: 'Deleted', schema: null } },
  }),
  defineEndpoint({
    id: 'password.reset',
    method: 'post',
    path: '/password/reset',
    service: 'gateway',
    tags: ['session'],
    summary: 'Request a password reset (form or JSON: email)',
    description: 'Always answers 200 (empty, as Traccar), whether or not the address is known. A single-use token is sent to the user.',
    access: 'public',
    request: { body: PasswordResetRequest },
    responses: { 200: { description: 'Accepted (no body)', schema: null } },
  }),
  defineEndpoint({
    id: 'password.update',
    method: 'post',
    path: '/password/update',
    service: 'gateway',
    tags: ['session'],
    summary: 'Set a new password with a reset token (form or JSON: token, password)',
    description: 'The token is single-use and expires. Every session of the user ends. Answers 200 with no body, as Traccar.',
    access: 'public',
    request: { body: PasswordUpdate },
    responses: { 200: { description: 'Password changed (no body)', schema: null } },
  }),
  defineEndpoint({
    id: 'users.totp.generate',
    method: 'post',
    path: '/users/totp',
    service: 'gateway',
    tags,
    summary: 'Start TOTP enrolment for the caller: answers a new secret (base32 text) to put in an authenticator app',
    description:
      'The secret stays pending (10 minutes) until POST /users/totp/confirm proves a first code; only then does sign-in ' +
      'require a code. A new request replaces a pending secret. A user whose second factor is already active gets 409 ' +
      '(the user turns it off first with POST /users/totp/disable, or an administrator removes it with DELETE /users/{id}/totp).',
    access: 'authenticated',
    responses: { 200: { description: 'The secret, base32 (RFC 4648, no padding)', schema: z.string(), contentType: 'text/plain' } },
  }),
  defineEndpoint({
    id: 'users.totp.confirm',
    method: 'post',
    path: '/users/totp/confirm',
    service: 'gateway',
    tags,
    summary: 'Confirm TOTP enrolment with a first code from the pending secret (form or JSON: code); the second factor becomes active',
    description: 'A wrong code answers 400 naming `code`; no pending secret (never started, or expired) answers 409.',
    access: 'authenticated',
    request: { body: TotpConfirm },
    responses: { 200: { description: 'The user, with totpEnabled true', schema: User } },
  }),
  defineEndpoint({
    id: 'users.totp.delete',
    method: 'delete',
    path: '/users/{id}/totp',
    service: 'gateway',
    tags,
    summary: "Remove a user's TOTP second factor (administrators); sign-in needs only the password again",
    description: 'A user without a second factor answers 404. A password reset never removes it.',
    access: ['admin'],
    request: { params: idParam('user') },
    responses: { 204: { description: 'Removed', schema: null } },
  }),
  defineEndpoint({
    id: 'users.lock.delete',
    method: 'delete',
    path: '/users/{id}/lock',
    service: 'gateway',
    tags,
    summary: "Lift a user's sign-in locks (administrators): every address's failures, waits and locks of the account are forgotten",
    description:
      'Repeated wrong passwords make an account wait longer after each failure (from the second) and then lock it from that address ' +
      '(429 with Retry-After); while the account or an address is being guessed at, addresses the account never signed in from wait ' +
      'LOGIN_NEW_ADDRESS_DELAY_SECONDS before each attempt (never a lock wider than one account and address). This forgets those failures and the ' +
      "account-wide count (addresses the user signed in from stay known), and for LOGIN_LOCKOUT_SECONDS the user's new addresses are not " +
      'slowed down. The right password with a valid TOTP code also lifts a lock. Audited as user.unlock.',
    access: ['admin'],
    request: { params: idParam('user') },
    responses: { 204: { description: 'Unlocked', schema: null } },
  }),
  defineEndpoint({
    id: 'users.totp.disable',
    method: 'post',
    path: '/users/totp/disable',
    service: 'gateway',
    tags,
    summary:
      "Turn the caller's own TOTP second factor off (form or JSON: a current code, or the password); sign-in needs only the password again",
    description:
      'A code counts once (a used one answers 400 naming `code`, as a wrong one does); a wrong password answers 403. Both are counted ' +
      'as failed sign-ins of the account (429 while it waits or is locked). No active second factor answers 409. Audited as ' +
      "user.totp-disable. Administrators remove another user's with DELETE /users/{id}/totp.",
    access: 'authenticated',
    request: { body: TotpDisable },
    responses: { 200: { description: 'The user, with totpEnabled false', schema: User } },
  }),
] as const;
