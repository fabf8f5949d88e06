import { endpointsOf } from '@corridor/contracts';
import { createApp, type Adapters, type App, type Logger, type Subscription } from '@corridor/platform';
import { DeviceRegistry } from './devices/device-registry';
import { PositionIntake } from './positions/intake';
import { startPositionStore } from './positions/position-store';
import { positionRoutes } from './positions/routes';
import { buildOsmAndServer } from './http/osmand-server';

export interface IngestDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
  /** INTERNAL_TOKEN_SECRET: verifies the gateway's identity header. */
  identitySecret: string;
}

export interface IngestService {
  app: App;
  osmand: App;
  registry: DeviceRegistry;
  intake: PositionIntake;
  /** Starts the consumers (device registry, position store). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const ingestEndpoints = endpointsOf('ingest');

/** Builds the ingest service from its adapters: the API app, the device-port servers and the consumers. */
export async function build(deps: IngestDeps): Promise<IngestService> {
  const logger = deps.logger;
  const registry = new DeviceRegistry(deps.bus, deps.cache, logger.child({ component: 'device-registry' }));
  const intake = new PositionIntake({ bus: deps.bus, registry, clock: deps.clock, logger });
  const app = createApp({
    name: 'ingest',
    logger,
    identitySecret: deps.identitySecret,
    readiness: { bus: () => deps.bus.ping(), analytics: () => deps.analytics.ping(), cache: () => deps.cache.ping() },
  });
  positionRoutes(app, intake);
  const osmand = await buildOsmAndServer({ logger: logger.child({ protocol: 'osmand' }), intake, now: () => deps.clock.now() });
  const subs: Subscription[] = [];
  return {
    app,
    osmand,
    registry,
    intake,
    async start() {
      await registry.start();
      subs.push(await startPositionStore({ bus: deps.bus, analytics: deps.analytics, cache: deps.cache, logger: logger.child({ component: 'position-store' }) }));
    },
    async close() {
      await Promise.allSettled([app.close(), osmand.close()]);
      await Promise.allSettled([...subs.map((s) => s.stop()), registry.stop()]);
    },
  };
}
