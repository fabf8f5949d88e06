import { companyScope, type Identity } from '@corridor/platform';

/**
 * The company whose journeys the caller is limited to, or undefined for every company. As
 * companyScope, except that a dispatcher bound to no company is platform staff and sees every
 * journey (the dispatchers watching the corridors live); a company's own dispatcher sees its journeys.
 */
export function journeyScope(identity: Identity): number | undefined {
  if (identity.roles.includes('dispatcher') && identity.companyId === null) return undefined;
  return companyScope(identity);
}
