import closeWithGrace from 'close-with-grace';
import type { Logger } from './logger';

/**
 * Process concerns for a service's main.ts: start, then close cleanly on SIGINT/SIGTERM or a
 * fatal error (close-with-grace), with a deadline.
 */
export async function runService(name: string, logger: Logger, start: () => Promise<{ close(): Promise<void> }>): Promise<void> {
  let running: { close(): Promise<void> } | undefined;
  closeWithGrace({ delay: 10000 }, async ({ signal, err }) => {
    if (err) logger.error({ err }, `${name} stopping after an error`);
    else logger.info({ signal }, `${name} stopping`);
    await running?.close();
  });
  try {
    running = await start();
  } catch (err) {
    logger.fatal({ err }, `${name} failed to start`);
    process.exit(1);
  }
}
