import {
  cacheKeys, callerCompanyCheck, companyScope, deviceReferenceCheck, isAdmin, numericIds, publishedOwnersCheck, remoteReferenceCheck, setReferenceChecks,
  type App, type Cache, type InternalKeys, type ReferenceCheck,
} from '@corridor/platform';
import type { DeviceDirectory } from '../live/device-directory';
import type { UsersRepository } from './repository';

/**
 * Every id a gateway request carries is checked here before any handler runs (404 like an unknown
 * id): users from this service's table (administrators name anyone, others themselves: as GET
 * /users/{id}). Devices, groups and geofences are other services' and appear only in staff
 * endpoints here (users, permissions): staff may name existing ones (devices from the device
 * registry in the shared cache or the live feed's directory, groups from the list ops-api
 * publishes, geofences asked of the geofence service), a company caller none. Companies: a company
 * caller its own, staff any.
 */
export function gatewayReferenceChecks(app: App, deps: { users: UsersRepository; cache: Cache; devices: DeviceDirectory; geofenceUrl: string; keys: InternalKeys }): void {
  const staffOnly = (exists: ReferenceCheck): ReferenceCheck => async (ids, who, site) => (companyScope(who) === undefined ? exists(ids, who, site) : []);
  setReferenceChecks(app, {
    user: async (ids, who) => {
      const existing = await deps.users.existingIds(numericIds(ids));
      return [...existing].filter((id) => isAdmin(who) || id === who.userId);
    },
    device: staffOnly(deviceReferenceCheck(deps.cache, (id) => deps.devices.get(id))),
    company: callerCompanyCheck,
    group: staffOnly(publishedOwnersCheck(deps.cache, cacheKeys.groups(), { shared: false, what: 'groups' })),
    geofence: staffOnly(remoteReferenceCheck({
      baseUrl: () => deps.geofenceUrl, path: (id) => `/geofences/${id}`, keys: deps.keys, audience: 'geofence', owner: 'The geofence service',
    })),
  });
}
