import { eq, inArray } from 'drizzle-orm';
import {
  callerCompanyCheck,
  companyOwned,
  deviceReferenceCheck,
  numericIds,
  setReferenceChecks,
  type App,
  type Cache,
  type Orm,
  type RefId,
} from '@corridor/platform';
import { flags, journeys, routes } from '../db/schema';

/**
 * Every id a journey request carries is checked here, against the caller's company, before any
 * handler runs (404 like an unknown id): routes (shared ones readable by all), journeys and flags
 * from this service's tables; devices from the device registry ops-api keeps in the shared cache.
 * Companies are not this service's: a company caller may name its own only, staff any.
 */
export function journeyReferenceChecks(app: App, deps: { orm: Orm; cache: Cache }): void {
  const { orm } = deps;
  const ownersOf = (rows: { id: number; companyId: number | null }[]) =>
    new Map<RefId, number | null>(rows.map((r) => [r.id, r.companyId]));
  setReferenceChecks(app, {
    route: companyOwned(
      async (ids) => {
        const wanted = numericIds(ids);
        return ownersOf(
          wanted.length
            ? await orm.select({ id: routes.id, companyId: routes.companyId }).from(routes).where(inArray(routes.id, wanted))
            : [],
        );
      },
      { shared: true },
    ),
    journey: companyOwned(
      async (ids) => {
        const wanted = numericIds(ids);
        return ownersOf(
          wanted.length
            ? await orm.select({ id: journeys.id, companyId: journeys.companyId }).from(journeys).where(inArray(journeys.id, wanted))
            : [],
        );
      },
      { shared: false },
    ),
    journeyFlag: companyOwned(
      async (ids) => {
        const wanted = numericIds(ids);
        return ownersOf(
          wanted.length
            ? await orm
                .select({ id: flags.id, companyId: journeys.companyId })
                .from(flags)
                .innerJoin(journeys, eq(flags.journeyId, journeys.id))
                .where(inArray(flags.id, wanted))
            : [],
        );
      },
      { shared: false },
    ),
    device: deviceReferenceCheck(deps.cache),
    company: callerCompanyCheck,
  });
}
