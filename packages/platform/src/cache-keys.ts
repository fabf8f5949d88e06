/**
 * Cache keys shared between services (one writer, other readers). Keeping them in one place is
 * what lets ops-api and ingest agree on them.
 */
export const cacheKeys = {
  /** Device registry entry by unique id (ops-api writes, ingest reads). */
  deviceByUniqueId: (uniqueId: string): string => `device:uid:${uniqueId}`,
  /** Latest position of a device, positions.v1 JSON (the position writer writes, ops-api and the gateway read). */
  latestPosition: (deviceId: number): string => `position:latest:${deviceId}`,
  /** Every computed attribute, a JSON list of ComputedAttributeDefinition (ops-api writes, ingest reads). */
  computedAttributes: (): string => 'computed-attributes:v1',
  /**
   * Accumulators set through PUT /devices/{id}/accumulators, JSON { totalDistance?, hours? } (ops-api
   * writes, ingest applies them to the device's next position as the new base and deletes the key).
   */
  accumulatorsSet: (deviceId: number): string => `device:accumulators-set:${deviceId}`,
  /** Every calendar, a JSON list of CalendarDefinition (ops-api writes, the geofence evaluator reads). */
  calendars: (): string => 'calendars:v1',
  /** Every group's id, company, parent groupId and attributes, a JSON list (ops-api writes; the geofence service checks group references with it, ops-api's device events read the attributes). */
  groups: (): string => 'groups:v1',
  /** Every user's id and company, a JSON UserDirectory (the gateway writes, services checking user references read). */
  userDirectory: (): string => 'users:v1',
  /** Registry entry by device id, as deviceByUniqueId (ops-api writes; journey and geofence check device references with it). */
  deviceById: (id: number): string => `device:id:${id}`,
  /** The server's attributes (PUT /server), a JSON list of one object (the gateway writes, ops-api's device events read). */
  serverAttributes: (): string => 'server-attributes:v1',
  /** Every maintenance, a JSON list of { id, name, type, start, period, companyId } (ops-api writes, its device events read). */
  maintenances: (): string => 'maintenances:v1',
  /**
   * The protocol a device first spoke (ingest claims it, set-if-absent, at the first accepted frame;
   * ops-api deletes it when an administrator sets or clears the device's protocol). The registry
   * entry's `protocol` wins over it once ops-api stored the binding.
   */
  deviceProtocol: (deviceId: number): string => `device:protocol:${deviceId}`,
  /** SHA-256 of the JT/T 808 authentication code issued to a device at registration (ingest writes; ops-api deletes it with the protocol binding). */
  jt808AuthCode: (deviceId: number): string => `device:jt808-code:${deviceId}`,
};
