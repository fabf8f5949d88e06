import { callerCompanyCheck, companyScope, isAdmin, numericIds, setReferenceChecks, type App, type ReferenceCheck } from '@corridor/platform';
import type { UsersRepository } from './repository';

/**
 * Every id a gateway request carries is checked here before any handler runs (404 like an unknown
 * id): users from this service's table (administrators name anyone, others themselves: as GET
 * /users/{id}). Companies, devices, groups and geofences are other services' and appear only in
 * staff endpoints here (users, permissions): staff may name any (the links Traccar keeps are taken
 * as given), a company caller its own company and nothing else.
 */
export function gatewayReferenceChecks(app: App, deps: { users: UsersRepository }): void {
  const staffOnly: ReferenceCheck = async (ids, who) => (companyScope(who) === undefined ? ids : []);
  setReferenceChecks(app, {
    user: async (ids, who) => {
      const existing = await deps.users.existingIds(numericIds(ids));
      return [...existing].filter((id) => isAdmin(who) || id === who.userId);
    },
    device: staffOnly,
    company: callerCompanyCheck,
    group: staffOnly,
    geofence: staffOnly,
  });
}
