import { createAdapters, createLogger, internalKeys, parseConfig, runService } from '@corridor/platform';
import { IngestConfig } from './config';
import { build } from './app';

const config = parseConfig(IngestConfig);
const logger = createLogger('ingest', config.LOG_LEVEL);

await runService('ingest', logger, async () => {
  const adapters = await createAdapters(config, logger, { dataDir: config.DATA_DIR, service: 'ingest' });
  const svc = await build({ ...adapters, logger, identitySecret: internalKeys(config), settings: config });
  await svc.start();
  await svc.app.listen({ host: config.HOST, port: config.PORT });
  await svc.osmand.listen({ host: config.HOST, port: config.OSMAND_PORT });
  const devicePorts = await svc.ports.listen(config, config.HOST);
  logger.info({ api: config.PORT, osmand: config.OSMAND_PORT, devicePorts }, 'ingest listening');
  return {
    async close() {
      await svc.close();
      await adapters.close();
    },
  };
}, { metrics: { host: config.METRICS_HOST, port: config.METRICS_PORT } });
