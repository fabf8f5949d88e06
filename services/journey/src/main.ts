import { createAdapters, createLogger, internalKeys, parseConfig, runService } from '@corridor/platform';
import { JourneyConfig } from './config';
import { build } from './app';

const config = parseConfig(JourneyConfig);
const logger = createLogger('journey', config.LOG_LEVEL);

await runService(
  'journey',
  logger,
  async () => {
    const adapters = await createAdapters(config, logger, { dataDir: config.DATA_DIR, service: 'journey' });
    const svc = await build(
      { ...adapters, logger, identitySecret: internalKeys(config) },
      {
        sweepIntervalMs: config.JOURNEY_SWEEP_INTERVAL_S * 1000,
        earlyStartMs: config.JOURNEY_EARLY_START_MINUTES * 60_000,
        seedRoutes: config.JOURNEY_SEED_ROUTES,
      },
    );
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
