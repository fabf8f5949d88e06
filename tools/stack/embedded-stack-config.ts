import { parseConfig } from '@corridor/platform';
import { StackConfig } from './config';

/** The real parts' addresses: without them the stack runs on its embedded defaults (PGlite, chDB, the in-process bus, a memory cache). */
const REAL_PARTS = ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL', 'REDIS_SENTINELS'];

/**
 * A test's `pnpm start` config on the embedded parts: this process's environment without the real
 * parts' addresses, errors only in the log, every port of StackConfig 0 (the services' any free
 * one; a device protocol's 0 = not opened), then `settings` (DATA_DIR, the simulator, a device
 * port the test drives...). Used by the tests that start the whole stack in their process
 * (stack-threads, embedded-upgrade, the console's browser lanes).
 */
export function embeddedStackConfig(settings: Record<string, string>): Readonly<StackConfig> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !REAL_PARTS.includes(k)));
  const everyPortAny = Object.fromEntries(
    Object.keys(StackConfig.shape)
      .filter((k) => k.endsWith('_PORT'))
      .map((k) => [k, '0']),
  );
  return parseConfig(StackConfig, { ...env, LOG_LEVEL: 'error', ...everyPortAny, ...settings });
}
