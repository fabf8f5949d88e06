import type { EndpointDef } from '@corridor/contracts/endpoint';
import type { Role } from '@corridor/contracts/roles';
import type { User } from '@corridor/contracts/users';

/** Whether the user may call an endpoint, read from its access rule in packages/contracts. */
export function may(user: Pick<User, 'roles'> | null | undefined, def: Pick<EndpointDef, 'access'>): boolean {
  if (!user) return def.access === 'public';
  if (def.access === 'public' || def.access === 'authenticated') return true;
  return def.access.some((r) => user.roles.includes(r));
}

export const hasRole = (user: Pick<User, 'roles'> | null | undefined, ...roles: Role[]): boolean =>
  Boolean(user && roles.some((r) => user.roles.includes(r)));
