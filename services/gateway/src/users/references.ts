import {
  cacheKeys,
  callerCompanyCheck,
  deviceReferenceCheck,
  isAdmin,
  numericIds,
  publishedOwnersCheck,
  remoteReferenceCheck,
  setReferenceChecks,
  type App,
  type Cache,
  type InternalKeys,
} from '@corridor/platform';
import type { DeviceDirectory } from '../live/device-directory';
import type { UsersRepository } from './repository';

/**
 * Every id a gateway request carries is checked here before any handler runs (404 like an unknown
 * id): users from this service's table (administrators name anyone, others themselves: as GET
 * /users/{id}). Devices, groups and geofences are other services' and appear only in /permissions:
 * devices (from the device registry in the shared cache or the live feed's directory) and groups
 * (from the list ops-api publishes) of the caller's company, any for staff; geofences and
 * notification rules, scheduled reports and the objects Traccar links (drivers, computed attributes, saved commands,
 * maintenance, calendars) asked of their owner (geofence service, ops-api) with the caller's identity. A
 * dispatcher may then make only a notification rule's links (403 after these checks). Companies: a company caller its
 * own, staff any.
 */
export function gatewayReferenceChecks(
  app: App,
  deps: { users: UsersRepository; cache: Cache; devices: DeviceDirectory; geofenceUrl: string; opsApiUrl: string; keys: InternalKeys },
): void {
  setReferenceChecks(app, {
    user: async (ids, who) => {
      const existing = await deps.users.existingIds(numericIds(ids));
      return [...existing].filter((id) => isAdmin(who) || id === who.userId);
    },
    device: deviceReferenceCheck(deps.cache, (id) => deps.devices.get(id)),
    company: callerCompanyCheck,
    group: publishedOwnersCheck(deps.cache, cacheKeys.groups(), { shared: false, what: 'groups' }),
    notificationRule: remoteReferenceCheck({
      baseUrl: () => deps.opsApiUrl,
      path: (id) => `/notifications/${id}`,
      keys: deps.keys,
      audience: 'ops-api',
      owner: 'ops-api',
    }),
    report: remoteReferenceCheck({
      baseUrl: () => deps.opsApiUrl,
      path: (id) => `/reports/${id}`,
      keys: deps.keys,
      audience: 'ops-api',
      owner: 'ops-api',
    }),
    // the objects Traccar links (drivers, computed attributes, saved commands, maintenance, calendars) are ops-api's, read as the caller reads them
    ...Object.fromEntries(
      (
        [
          ['driver', '/drivers'],
          ['computedAttribute', '/attributes/computed'],
          ['command', '/commands'],
          ['maintenance', '/maintenance'],
          ['calendar', '/calendars'],
        ] as const
      ).map(([kind, path]) => [
        kind,
        remoteReferenceCheck({
          baseUrl: () => deps.opsApiUrl,
          path: (id) => `${path}/${id}`,
          keys: deps.keys,
          audience: 'ops-api',
          owner: 'ops-api',
        }),
      ]),
    ),
    geofence: remoteReferenceCheck({
      baseUrl: () => deps.geofenceUrl,
      path: (id) => `/geofences/${id}`,
      keys: deps.keys,
      audience: 'geofence',
      owner: 'The geofence service',
    }),
  });
}
