import { createAdapters, createLogger, parseConfig, runService } from '@corridor/platform';
import { GatewayConfig } from './config';
import { build } from './app';

const config = parseConfig(GatewayConfig);
const logger = createLogger('gateway', config.LOG_LEVEL);

await runService('gateway', logger, async () => {
  const { close: closeAdapters, ...adapters } = await createAdapters(config, logger, { dataDir: config.DATA_DIR, service: 'gateway' });
  const svc = await build({ ...adapters, logger, config });
  await svc.start();
  await svc.app.listen({ host: config.HOST, port: config.PORT });
  await svc.metricsApp.listen({ host: config.METRICS_HOST, port: config.METRICS_PORT });
  return {
    async close() {
      await svc.close();
      await closeAdapters();
    },
  };
});
