import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgDb } from './adapters/db-pg';
import { runClickHouseMigrate } from './clickhouse/migrate-command';
import { createLogger } from './logger';

/**
 * The migrate step of a release, run before its services start (the migrations Job of deploy/k8s,
 * the migrate service of docker-compose.yml):
 * - `--service journey`: that service's PostgreSQL migrations, from the folder `drizzle` of the
 *   image's working directory (each service's image runs its own), under the same advisory lock as
 *   a service's own start-up migration, so a rollout racing the Job finds nothing left to do;
 * - `--clickhouse`: the ClickHouse migrations (packages/platform/migrations/clickhouse, in every
 *   service's image) against CLICKHOUSE_URL, or the embedded store under DATA_DIR without it.
 * Image command: `node --conditions=compiled node_modules/@corridor/platform/dist/migrate-main.js --clickhouse`.
 */
const { values } = parseArgs({
  options: { service: { type: 'string' }, folder: { type: 'string', default: 'drizzle' }, clickhouse: { type: 'boolean', default: false } },
});
if (values.clickhouse) {
  const logger = createLogger('migrate-clickhouse');
  try {
    await runClickHouseMigrate(process.env, logger);
  } catch (err) {
    logger.fatal({ err }, `ClickHouse migrations failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
} else {
  const url = process.env.DATABASE_URL;
  if (!values.service || !/^[a-z][a-z0-9-]*$/.test(values.service))
    throw new Error('--service <name> is required (a service folder name), or --clickhouse');
  if (!url) throw new Error('DATABASE_URL is required');
  const folder = resolve(values.folder);
  const db = createPgDb(url, { max: 2 });
  try {
    await db.migrate(folder, values.service);
    process.stdout.write(`${values.service}: migrations in ${folder} applied\n`);
  } finally {
    await db.close();
  }
}
