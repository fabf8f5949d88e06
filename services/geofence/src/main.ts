import { createAdapters, createLogger, internalKeys, parseConfig, runService } from '@corridor/platform';
import { GeofenceConfig } from './config';
import { build } from './app';

const config = parseConfig(GeofenceConfig);
const logger = createLogger('geofence', config.LOG_LEVEL);

await runService(
  'geofence',
  logger,
  async () => {
    const adapters = await createAdapters(config, logger, { dataDir: config.DATA_DIR, service: 'geofence' });
    const svc = await build({ ...adapters, logger, identitySecret: internalKeys(config) });
    await svc.start();
    await svc.app.listen({ host: config.HOST, port: config.PORT });
    return {
      async close() {
        await svc.close();
        await adapters.close();
      },
    };
  },
  { metrics: { host: config.METRICS_HOST, port: config.METRICS_PORT } },
);
