import { endpointsOf } from '@corridor/contracts';
import { createApp, type Adapters, type App, type Logger } from '@corridor/platform';

export interface JourneyDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
  /** INTERNAL_TOKEN_SECRET: verifies the gateway's identity header. */
  identitySecret: string;
}

export interface JourneyService {
  app: App;
  start(): Promise<void>;
  close(): Promise<void>;
}

export const journeyEndpoints = endpointsOf('journey');

/** Builds the journey service from its adapters. */
export async function build(deps: JourneyDeps): Promise<JourneyService> {
  const app = createApp({
    name: 'journey',
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
