import {
  cacheKeys,
  callerCompanyCheck,
  companyOwned,
  deviceReferenceCheck,
  numericIds,
  publishedOwnersCheck,
  setReferenceChecks,
  userReferenceCheck,
  type App,
  type Cache,
  type Orm,
  type RefId,
} from '@corridor/platform';
import { inArray } from 'drizzle-orm';
import { geofences } from '../db/schema';
import type { DeviceDirectory } from '../evaluator/device-directory';

/**
 * Every id a geofence request carries is checked here, against the caller's company, before any
 * handler runs (404 like an unknown id): fences from this service's table (shared ones readable by
 * all); devices from the device registry; groups and calendars from the lists ops-api publishes in
 * the shared cache; users from the directory the gateway publishes.
 */
export function geofenceReferenceChecks(app: App, deps: { orm: Orm; cache: Cache; directory: DeviceDirectory }): void {
  const fenceOwners = async (ids: RefId[]) => {
    const wanted = numericIds(ids);
    const rows = wanted.length
      ? await deps.orm.select({ id: geofences.id, companyId: geofences.companyId }).from(geofences).where(inArray(geofences.id, wanted))
      : [];
    return new Map<RefId, number | null>(rows.map((r) => [r.id, r.companyId]));
  };
  setReferenceChecks(app, {
    geofence: companyOwned(fenceOwners, { shared: true }),
    device: deviceReferenceCheck(deps.cache, (id) => deps.directory.known(id)),
    group: publishedOwnersCheck(deps.cache, cacheKeys.groups(), { shared: false, what: 'groups' }),
    calendar: publishedOwnersCheck(deps.cache, cacheKeys.calendars(), { shared: true, what: 'calendars' }),
    user: userReferenceCheck(deps.cache),
    company: callerCompanyCheck,
  });
}
