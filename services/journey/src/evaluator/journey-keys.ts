/**
 * Cache keys private to the journey service. Hot state lives in the cache so a restarted or
 * rebalanced evaluator continues where the last one stopped; the version counters tell every
 * instance when its in-process copies of journeys and routes are stale.
 */
export const journeyKeys = {
  /** JourneyState JSON of one journey. */
  state: (journeyId: number): string => `journey:state:${journeyId}`,
  /** Incremented whenever a journey of this device is created, cancelled or changes state. */
  deviceVersion: (deviceId: number): string => `journey:device-version:${deviceId}`,
  /** Incremented whenever a route changes. */
  routesVersion: 'journey:routes-version',
  /** Held while a device's journeys are evaluated (consumer) or swept (timer). */
  deviceLock: (deviceId: number): string => `journey:lock:device:${deviceId}`,
};

/** Hot state outlives a journey by this long at most (it is deleted on completion or cancellation). */
export const STATE_TTL_SECONDS = 30 * 24 * 3600;
