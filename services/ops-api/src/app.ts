import { fileURLToPath } from 'node:url';
import { endpointsOf } from '@corridor/contracts';
import { createApp, ensureEventsTable, ensurePositionsTable, type Adapters, type App, type Logger } from '@corridor/platform';
import { devicesRepository } from './devices/repository';
import { devicesService, type DevicesService } from './devices/service';
import { deviceRoutes } from './devices/routes';
import { positionQueryRoutes } from './positions/routes';

export interface OpsApiDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
}

export interface OpsApiService {
  app: App;
  devices: DevicesService;
  start(): Promise<void>;
  close(): Promise<void>;
}

export const opsApiEndpoints = endpointsOf('ops-api');
export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

/** Builds ops-api: migrations, the domain modules and their routes. */
export async function build(deps: OpsApiDeps): Promise<OpsApiService> {
  await deps.db.migrate(migrationsFolder, 'ops-api');
  await ensurePositionsTable(deps.analytics);
  await ensureEventsTable(deps.analytics);
  const app = createApp({
    name: 'ops-api',
    logger: deps.logger,
    readiness: { db: () => deps.db.ping(), analytics: () => deps.analytics.ping(), cache: () => deps.cache.ping(), bus: () => deps.bus.ping() },
  });
  const repo = devicesRepository(deps.db.orm);
  const devices = devicesService({ repo, bus: deps.bus, cache: deps.cache, logger: deps.logger.child({ module: 'devices' }) });
  deviceRoutes(app, devices);
  positionQueryRoutes(app, { analytics: deps.analytics, cache: deps.cache, devices: repo });
  return {
    app,
    devices,
    async start() {
      const n = await devices.syncRegistry();
      deps.logger.info({ devices: n }, 'device registry published');
    },
    async close() {
      await app.close();
    },
  };
}
