import { sql } from 'drizzle-orm';
import { boolean, doublePrecision, index, integer, jsonb, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Role } from '@corridor/contracts';
import { timestamps } from './columns';
import { identity } from './identity-schema';

/** Users: Traccar's User fields where they fit, plus roles, company and the OpenID subject. */
export const users = identity.table(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    login: text('login'),
    name: text('name').notNull(),
    /** scrypt$<log2 N>$<r>$<p>$<salt>$<hash>; null for users who sign in only through OpenID. */
    passwordHash: text('password_hash'),
    roles: text('roles').array().$type<Role[]>().notNull(),
    companyId: integer('company_id'),
    disabled: boolean('disabled').notNull().default(false),
    expirationTime: timestamp('expiration_time', { withTimezone: true, mode: 'date' }),
    phone: text('phone'),
    readonly: boolean('readonly').notNull().default(false),
    map: text('map'),
    latitude: doublePrecision('latitude').notNull().default(0),
    longitude: doublePrecision('longitude').notNull().default(0),
    zoom: integer('zoom').notNull().default(0),
    coordinateFormat: text('coordinate_format'),
    deviceLimit: integer('device_limit').notNull().default(-1),
    userLimit: integer('user_limit').notNull().default(0),
    deviceReadonly: boolean('device_readonly').notNull().default(false),
    limitCommands: boolean('limit_commands').notNull().default(false),
    disableReports: boolean('disable_reports').notNull().default(false),
    fixedEmail: boolean('fixed_email').notNull().default(false),
    poiLayer: text('poi_layer'),
    /** `${issuer}|${sub}` of the OpenID Connect account linked to this user. */
    oidcSubject: text('oidc_subject'),
    /** The confirmed TOTP secret (base32) of a user with a second factor; never leaves the gateway. */
    totpKey: text('totp_key'),
    /** The last TOTP time step accepted for this user: a code of that step or an earlier one is refused (replay). */
    totpLastStep: integer('totp_last_step'),
    attributes: jsonb('attributes').$type<Record<string, unknown>>().notNull().default({}),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true, mode: 'date' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_login_idx').on(sql`lower(${t.login})`),
    uniqueIndex('users_oidc_subject_idx').on(t.oidcSubject),
    index('users_company_idx').on(t.companyId),
  ],
);
export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
