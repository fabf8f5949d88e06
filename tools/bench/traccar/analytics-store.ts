/**
 * The analytics store of `pnpm bench traccar`'s ingest-alone run, in a process of its own so that
 * its CPU is counted with the stores, not with ingest: chDB behind platform's ClickHouse HTTP front
 * (no ClickHouse server can run on this machine: testing/chdb-http.ts), the database migrated as the
 * migrate step does before a rollout. Prints `ANALYTICS_STORE <url>` once it serves, and runs until
 * SIGTERM. Env: CHDB_DIR (its data folder), CLICKHOUSE_DATABASE.
 */
import { createClickHouseAnalytics, migrateAnalytics } from '@corridor/platform';
import { startChdbHttp } from '@corridor/platform/testing/chdb-http';

const path = process.env.CHDB_DIR;
const database = process.env.CLICKHOUSE_DATABASE;
if (!path || !database) throw new Error('analytics-store: CHDB_DIR and CLICKHOUSE_DATABASE are required');
const chdb = await startChdbHttp({ path });
const analytics = await createClickHouseAnalytics({ url: chdb.url, username: 'default', password: '', database, createDatabase: true });
await migrateAnalytics(analytics);
await analytics.close();
process.stdout.write(`ANALYTICS_STORE ${chdb.url}\n`);
process.once('SIGTERM', () => {
  void chdb.close().finally(() => process.exit(0));
});
