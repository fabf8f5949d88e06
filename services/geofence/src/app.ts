import { endpointsOf } from '@corridor/contracts';
import { createApp, type Adapters, type App, type Logger } from '@corridor/platform';

export interface GeofenceDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
  /** INTERNAL_TOKEN_SECRET: verifies the gateway's identity header. */
  identitySecret: string;
}

export interface GeofenceService {
  app: App;
  start(): Promise<void>;
  close(): Promise<void>;
}

export const geofenceEndpoints = endpointsOf('geofence');

/** Builds the geofence service from its adapters. */
export async function build(deps: GeofenceDeps): Promise<GeofenceService> {
  const app = createApp({
    name: 'geofence',
    logger: deps.logger,
    identitySecret: deps.identitySecret,
    readiness: { db: () => deps.db.ping(), bus: () => deps.bus.ping(), cache: () => deps.cache.ping(), analytics: () => deps.analytics.ping() },
  });
  return {
    app,
    async start() {},
    async close() {
      await app.close();
    },
  };
}
