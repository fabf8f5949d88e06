import { createHash } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { z } from 'zod';
import { Role, associationRoles, type Access } from '@corridor/contracts';
import { AppError } from './errors';

/**
 * The caller's identity as the gateway vouches for it. The gateway authenticates (session, token,
 * OpenID) and forwards this in a short-lived HS256 token in the `x-corridor-identity` header, for
 * one service (audience); services verify it with the shared INTERNAL_TOKEN_SECRET (or, during a
 * rotation, INTERNAL_TOKEN_SECRET_PREVIOUS) and never see user credentials.
 */
export const Identity = z.object({
  userId: z.number().int(),
  email: z.string(),
  name: z.string().default(''),
  roles: z.array(Role).min(1),
  /** The user's company; null for platform and association staff. */
  companyId: z.number().int().nullable(),
  /** A `device` account's devices (its /permissions links): the only ones it may report positions for. */
  deviceIds: z.array(z.number().int()).optional(),
});
export type Identity = z.infer<typeof Identity>;

export const IDENTITY_HEADER = 'x-corridor-identity';
const ISSUER = 'corridor-gateway';

/** How long a token the gateway signs lives, and the longest lifetime a service accepts (iat to exp). */
export const IDENTITY_TTL_SECONDS = 60;
export const IDENTITY_MAX_TTL_SECONDS = 300;
/** Clock difference tolerated between the gateway and a service. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * The keys of internal identity tokens (INTERNAL_TOKEN_SECRET, INTERNAL_TOKEN_SECRET_PREVIOUS):
 * `current` signs, `current` and `previous` verify, so a rotation never refuses a token in flight.
 * A plain string is a single current key.
 */
export type InternalKeys = string | { current: string; previous?: string | undefined };

const keyList = (keys: InternalKeys): string[] =>
  typeof keys === 'string' ? [keys] : [keys.current, ...(keys.previous ? [keys.previous] : [])];
const key = (secret: string): Uint8Array => new TextEncoder().encode(secret);
/** Names a key in the token header without revealing it (the first 16 characters of its SHA-256, base64url). */
export const keyId = (secret: string): string => createHash('sha256').update(secret).digest('base64url').slice(0, 16);

/**
 * A short-lived token for one service (`audience`: its name, e.g. 'ops-api'; tests may name several),
 * signed with the current key and naming it in the `kid` header.
 */
export async function signIdentity(
  identity: Identity,
  keys: InternalKeys,
  audience: string | string[],
  ttlSeconds = IDENTITY_TTL_SECONDS,
): Promise<string> {
  const [current] = keyList(keys);
  return new SignJWT({ ...identity })
    .setProtectedHeader({ alg: 'HS256', kid: keyId(current!) })
    .setIssuer(ISSUER)
    .setAudience(audience)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key(current!));
}

/**
 * The verified identity, or an UNAUTHENTICATED error: unknown key (kid), bad signature, another
 * service's audience, expired, issued in the future, or living longer than IDENTITY_MAX_TTL_SECONDS.
 */
export async function verifyIdentity(token: string, keys: InternalKeys, audience: string): Promise<Identity> {
  try {
    const { kid } = decodeProtectedHeader(token);
    const secret = keyList(keys).find((k) => keyId(k) === kid);
    if (!secret) throw new Error('unknown key');
    const { payload } = await jwtVerify(token, key(secret), {
      issuer: ISSUER,
      audience,
      algorithms: ['HS256'],
      requiredClaims: ['iat', 'exp'],
      maxTokenAge: IDENTITY_MAX_TTL_SECONDS,
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    if (payload.exp! - payload.iat! > IDENTITY_MAX_TTL_SECONDS) throw new Error('lifetime too long');
    if (payload.iat! > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw new Error('issued in the future');
    return Identity.parse(payload);
  } catch {
    throw new AppError('UNAUTHENTICATED', 'Invalid or expired internal identity token');
  }
}

export const isAdmin = (id: Identity): boolean => id.roles.includes('admin');
export const isAssociation = (id: Identity): boolean => id.roles.some((r) => associationRoles.includes(r));

/**
 * The company whose data the caller is limited to, or undefined when the caller sees every
 * company (platform admins, association staff, and staff without a company).
 */
export function companyScope(id: Identity): number | undefined {
  if (isAdmin(id) || isAssociation(id)) return undefined;
  // a dispatcher of the platform (no company) watches every company's trucks
  if (id.roles.includes('dispatcher') && id.companyId === null) return undefined;
  return id.companyId ?? -1; // a company role without a company sees nothing
}

/** Checks an endpoint's access rule against the caller: 401 without identity, 403 without a role. */
export function checkAccess(access: Access, identity: Identity | undefined): void {
  if (access === 'public') return;
  if (!identity) throw new AppError('UNAUTHENTICATED', 'Sign in first (session cookie, bearer token or basic auth)');
  if (access === 'authenticated' || isAdmin(identity)) return;
  if (!identity.roles.some((r) => access.includes(r))) {
    throw new AppError('FORBIDDEN', `Requires one of the roles: ${access.join(', ')}`, { required: [...access], roles: identity.roles });
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    identity?: Identity;
  }
}
