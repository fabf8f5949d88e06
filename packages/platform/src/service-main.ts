import closeWithGrace from 'close-with-grace';
import { createMetricsApp } from './app';
import type { Logger } from './logger';

/**
 * Process concerns for a service's main.ts: start, then close cleanly on SIGINT/SIGTERM or a
 * fatal error (close-with-grace), with a deadline. With `metrics`, GET /metrics listens on a port
 * of its own (METRICS_PORT), not the service's API port: it answers without authentication, so it
 * is meant to be reachable inside the cluster's NetworkPolicy only (deploy/README.md).
 */
export async function runService(
  name: string,
  logger: Logger,
  start: () => Promise<{ close(): Promise<void> }>,
  opts: { metrics?: { host: string; port: number } } = {},
): Promise<void> {
  let running: { close(): Promise<void> } | undefined;
  closeWithGrace({ delay: 10000 }, async ({ signal, err }) => {
    if (err) logger.error({ err }, `${name} stopping after an error`);
    else logger.info({ signal }, `${name} stopping`);
    await running?.close();
  });
  try {
    const service = await start();
    const metrics = opts.metrics ? createMetricsApp({ name, logger }) : undefined;
    if (metrics && opts.metrics) await metrics.listen(opts.metrics);
    running = {
      async close() {
        await metrics?.close();
        await service.close();
      },
    };
  } catch (err) {
    logger.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
}
