import { join } from 'node:path';
import type { Analytics } from '../adapters/analytics';
import { createClickHouseAnalytics } from '../adapters/clickhouse';
import { BaseEnv, parseConfig } from '../config';
import type { Logger } from '../logger';
import { migrateAnalytics, type MigrateResult, type MigrationProgress } from './migrate';

/** The environment of the ClickHouse migrate step: the services' ClickHouse variables and RAW_FRAME_TTL_DAYS. */
const ClickHouseMigrateEnv = BaseEnv.pick({
  LOG_LEVEL: true,
  DATA_DIR: true,
  CLICKHOUSE_URL: true,
  CLICKHOUSE_USER: true,
  CLICKHOUSE_PASSWORD: true,
  CLICKHOUSE_DATABASE: true,
  CLICKHOUSE_CLUSTER: true,
  RAW_FRAME_TTL_DAYS: true,
});

/** A partition copy may run for long: the client waits up to this for one statement. */
const STATEMENT_TIMEOUT_MS = 12 * 3600_000;

async function openAnalytics(env: BaseEnv | ReturnType<typeof ClickHouseMigrateEnv.parse>): Promise<Analytics> {
  if (env.CLICKHOUSE_URL) {
    return createClickHouseAnalytics({
      url: env.CLICKHOUSE_URL,
      username: env.CLICKHOUSE_USER,
      password: env.CLICKHOUSE_PASSWORD,
      database: env.CLICKHOUSE_DATABASE,
      cluster: env.CLICKHOUSE_CLUSTER,
      createDatabase: true,
      requestTimeoutMs: STATEMENT_TIMEOUT_MS,
      // progress headers keep the connection busy through load balancers while a long statement runs
      settings: { send_progress_in_http_headers: 1, http_headers_progress_interval_ms: '60000' },
    });
  }
  const { createChdbAnalytics } = await import('../adapters/clickhouse-chdb');
  return createChdbAnalytics({ path: join(env.DATA_DIR, 'chdb'), database: env.CLICKHOUSE_DATABASE });
}

const say =
  (logger: Logger) =>
  (p: MigrationProgress): void => {
    if (p.kind === 'applying') logger.info({ migration: p.name }, `applying ${p.name}`);
    else if (p.kind === 'adopted')
      logger.info({ setAside: p.setAside }, `tables from before versioned migrations set aside for 0002: ${p.setAside.join(', ')}`);
    else if (p.kind === 'partition')
      logger.info(
        { migration: p.name, table: p.source, partition: p.partition },
        `${p.name}: partition ${p.partition} of ${p.source} copied (${p.done} of ${p.of})`,
      );
    else if (p.kind === 'applied') logger.info({ migration: p.name, ms: p.ms }, `applied ${p.name}`);
    else logger.info({ days: p.days }, `raw_frames TTL set to ${p.days} days`);
  };

/**
 * The ClickHouse migrate step (`migrate-main --clickhouse`): applies the migrations to the database
 * CLICKHOUSE_URL names (created if missing), or to the embedded store under DATA_DIR without one.
 */
export async function runClickHouseMigrate(env: Record<string, string | undefined>, logger: Logger): Promise<MigrateResult> {
  const config = parseConfig(ClickHouseMigrateEnv, env);
  const analytics = await openAnalytics(config);
  try {
    const result = await migrateAnalytics(analytics, { rawFrameTtlDays: config.RAW_FRAME_TTL_DAYS, onProgress: say(logger) });
    if (result.ahead.length)
      logger.warn(
        { ahead: result.ahead },
        `the database has migrations this version does not know (${result.ahead.join(', ')}): a newer version migrated it`,
      );
    logger.info(
      { applied: result.applied },
      result.applied.length
        ? `ClickHouse ${config.CLICKHOUSE_DATABASE}: ${result.applied.length} applied`
        : `ClickHouse ${config.CLICKHOUSE_DATABASE}: up to date`,
    );
    return result;
  } finally {
    await analytics.close();
  }
}
