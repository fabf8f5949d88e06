import { parentPort, workerData } from 'node:worker_threads';
import {
  absentDb,
  bridgedParts,
  createAdapters,
  createClickHouseAnalytics,
  createLogger,
  internalKeys,
  parseConfig,
  systemClock,
  threadMetricsJson,
  type Adapters,
} from '@corridor/platform';
import { build } from './app';
import { IngestConfig } from './config';
import type { ThreadData, ThreadReport } from './threads/thread-data';
import { MIRRORED_KEYS, MIRRORED_WHOLE } from './threads/mirrored-keys';

/**
 * An ingest worker thread (threads/ingest-threads.ts starts it): a whole ingest instance whose
 * device ports share their port numbers with the other threads (SO_REUSEPORT). Its API and OsmAnd
 * listeners stay with the main thread.
 */
const data = workerData as ThreadData;
const port = parentPort!;
const report = (r: ThreadReport): void => port.postMessage(r);

try {
  const config = parseConfig(IngestConfig, data.env);
  const logger = createLogger('ingest', config.LOG_LEVEL).child({ thread: data.index });
  let adapters: Adapters;
  if (data.bridged) {
    // what a fix's ack would wait for on the main thread: its publish (posted within a window) and
    // the cache keys read per fix or device (mirrored here, told of other writers' changes)
    const parts = bridgedParts(data.bridged.port, data.bridged.kinds, {
      postedWindow: data.bridged.postedWindow,
      mirrored: data.bridged.mirrored ? MIRRORED_KEYS : [],
      mirroredWhole: data.bridged.mirrored ? MIRRORED_WHOLE : [],
    });
    const analytics = await createClickHouseAnalytics({
      url: data.bridged.clickhouseUrl,
      username: 'default',
      password: '',
      database: data.bridged.clickhouseDatabase,
    });
    adapters = {
      bus: parts.bus,
      cache: parts.cache,
      analytics,
      db: absentDb(`ingest thread ${data.index}`),
      clock: systemClock,
      async close() {
        await parts.bus.close();
        await analytics.close();
      },
    };
  } else {
    adapters = await createAdapters(config, logger, { service: 'ingest' });
  }
  const svc = await build({
    ...adapters,
    logger,
    identitySecret: internalKeys(config),
    settings: config,
    threading: { reusePort: true, positionStore: !data.bridged },
  });
  await svc.start();
  const ports = await svc.ports.listen(config, config.HOST);
  port.on('message', (m: { kind: string }) => {
    if (m.kind === 'metrics') void threadMetricsJson().then((metrics) => report({ kind: 'metrics', metrics }));
    if (m.kind === 'close') {
      void (async () => {
        await svc.close();
        await adapters.close();
        report({ kind: 'closed' });
      })();
    }
  });
  report({ kind: 'listening', ports });
} catch (err) {
  report({ kind: 'failed', error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
}
