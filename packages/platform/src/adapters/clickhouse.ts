import { createClient } from '@clickhouse/client';
import type { Analytics } from './analytics';

/** A ClickHouse server through @clickhouse/client over HTTP. Creates the database if missing. */
export async function createClickHouseAnalytics(opts: { url: string; username: string; password: string; database: string }): Promise<Analytics> {
  const admin = createClient({ url: opts.url, username: opts.username, password: opts.password, request_timeout: 30000 });
  await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${opts.database}` });
  await admin.close();
  const client = createClient({
    url: opts.url,
    username: opts.username,
    password: opts.password,
    database: opts.database,
    request_timeout: 30000,
    clickhouse_settings: { date_time_input_format: 'best_effort' },
  });
  return {
    kind: 'clickhouse',
    client,
    database: opts.database,
    async ping() {
      const r = await client.ping();
      if (!r.success) throw r.error;
    },
    close: () => client.close(),
  };
}
