import { createAdapters, createLogger, internalKeys, parseConfig, runService } from '@corridor/platform';
import { IngestConfig } from './config';
import { build } from './app';
import { startIngestThreads, threadCount, type IngestThreads } from './threads/ingest-threads';

const config = parseConfig(IngestConfig);
const logger = createLogger('ingest', config.LOG_LEVEL);

await runService(
  'ingest',
  logger,
  async () => {
    // every core of the pod: more ingest instances in worker threads on the same device ports
    // (threads/ingest-threads.ts); the embedded parts belong to one thread, so on them one thread
    const realParts = Boolean(config.KAFKA_BROKERS && config.CLICKHOUSE_URL && (config.REDIS_URL || config.REDIS_SENTINELS));
    const threads = realParts ? threadCount(config.INGEST_THREADS) : 1;
    const adapters = await createAdapters(config, logger, { dataDir: config.DATA_DIR, service: 'ingest' });
    const svc = await build({
      ...adapters,
      logger,
      identitySecret: internalKeys(config),
      settings: config,
      threading: { reusePort: threads > 1 },
    });
    await svc.start();
    await svc.app.listen({ host: config.HOST, port: config.PORT });
    await svc.osmand.listen({ host: config.HOST, port: config.OSMAND_PORT });
    const devicePorts = await svc.ports.listen(config, config.HOST);
    let more: IngestThreads | undefined;
    if (threads > 1) more = await startIngestThreads({ count: threads - 1, env: process.env, logger });
    logger.info(
      { api: config.PORT, osmand: config.OSMAND_PORT, devicePorts, threads, ...(realParts ? {} : { note: 'embedded parts: one thread' }) },
      'ingest listening',
    );
    return {
      async close() {
        await more?.close();
        await svc.close();
        await adapters.close();
      },
    };
  },
  { metrics: { host: config.METRICS_HOST, port: config.METRICS_PORT } },
);
