import { callerCompanyCheck, companyScope, deviceReferenceCheck, isAdmin, numericIds, setReferenceChecks, type App, type Cache, type ReferenceCheck } from '@corridor/platform';
import type { DeviceDirectory } from '../live/device-directory';
import type { UsersRepository } from './repository';

/**
 * Every id a gateway request carries is checked here before any handler runs (404 like an unknown
 * id): users from this service's table (administrators name anyone, others themselves: as GET
 * /users/{id}); devices from the device registry; companies, groups and geofences are other
 * services' and appear only in staff endpoints here: staff may name any, company callers their own
 * company only.
 */
export function gatewayReferenceChecks(app: App, deps: { users: UsersRepository; cache: Cache; devices: DeviceDirectory }): void {
  const staffOnly: ReferenceCheck = async (ids, who) => (companyScope(who) === undefined ? ids : []);
  setReferenceChecks(app, {
    user: async (ids, who) => {
      const existing = await deps.users.existingIds(numericIds(ids));
      return [...existing].filter((id) => isAdmin(who) || id === who.userId);
    },
    device: deviceReferenceCheck(deps.cache, (id) => deps.devices.get(id)),
    company: callerCompanyCheck,
    group: staffOnly,
    geofence: staffOnly,
  });
}
