import { createClient } from '@clickhouse/client';
import type { Analytics } from './analytics';
import { onCluster } from '../clickhouse/table-layout';

/**
 * A ClickHouse server through @clickhouse/client over HTTP. Creates the database if missing (on
 * every node of `cluster` when one is named: the tables are then replicated and distributed,
 * clickhouse/table-layout.ts, and an insert returns once the shards have the rows).
 */
export async function createClickHouseAnalytics(opts: { url: string; username: string; password: string; database: string; cluster?: string | undefined }): Promise<Analytics> {
  const admin = createClient({ url: opts.url, username: opts.username, password: opts.password, request_timeout: 30000 });
  await admin.command({ query: `CREATE DATABASE IF NOT EXISTS ${opts.database}${onCluster({ database: opts.database, cluster: opts.cluster })}` });
  await admin.close();
  const client = createClient({
    url: opts.url,
    username: opts.username,
    password: opts.password,
    database: opts.database,
    request_timeout: 30000,
    clickhouse_settings: {
      date_time_input_format: 'best_effort',
      // a Distributed insert waits for the shards (a consumer commits its offsets only after the rows are there)
      ...(opts.cluster ? { insert_distributed_sync: 1 } : {}),
    },
  });
  return {
    kind: 'clickhouse',
    client,
    database: opts.database,
    ...(opts.cluster ? { cluster: opts.cluster } : {}),
    async ping() {
      const r = await client.ping();
      if (!r.success) throw r.error;
    },
    close: () => client.close(),
  };
}
