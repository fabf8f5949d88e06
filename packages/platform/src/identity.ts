import { SignJWT, jwtVerify } from 'jose';
import { z } from 'zod';
import { Role, associationRoles, type Access } from '@corridor/contracts';
import { AppError } from './errors';

/**
 * The caller's identity as the gateway vouches for it. The gateway authenticates (session, token,
 * OpenID) and forwards this in a short-lived HS256 token in the `x-corridor-identity` header;
 * services verify it with the shared INTERNAL_TOKEN_SECRET and never see user credentials.
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
const AUDIENCE = 'corridor-services';

const key = (secret: string): Uint8Array => new TextEncoder().encode(secret);

export async function signIdentity(identity: Identity, secret: string, ttlSeconds = 60): Promise<string> {
  return new SignJWT({ ...identity })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key(secret));
}

/** The verified identity, or an UNAUTHENTICATED error (bad signature, expired, malformed). */
export async function verifyIdentity(token: string, secret: string): Promise<Identity> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'] });
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
