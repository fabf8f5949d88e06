import { createClient } from '@clickhouse/client';
import type { Analytics } from './analytics';
import { onCluster } from '../clickhouse/migration-render';

export interface ClickHouseOptions {
  url: string;
  username: string;
  password: string;
  database: string;
  /** CLICKHOUSE_CLUSTER: the tables are replicated and distributed (clickhouse/migration-render.ts), an insert returns once the shards have the rows. */
  cluster?: string | undefined;
  /** Create the database when missing (ON CLUSTER on a cluster): the migrate step does; a service never changes the schema. */
  createDatabase?: boolean;
  /** How long one request may take (default 30 s; the migrate step's partition copies take longer). */
  requestTimeoutMs?: number;
  /** Settings for every query of this client. */
  settings?: Record<string, string | number>;
}

/** A ClickHouse server through @clickhouse/client over HTTP. */
export async function createClickHouseAnalytics(opts: ClickHouseOptions): Promise<Analytics> {
  if (opts.createDatabase) {
    const admin = createClient({ url: opts.url, username: opts.username, password: opts.password, request_timeout: 30000 });
    await admin.command({
      query: `CREATE DATABASE IF NOT EXISTS ${opts.database}${onCluster({ database: opts.database, cluster: opts.cluster })}`,
    });
    await admin.close();
  }
  const client = createClient({
    url: opts.url,
    username: opts.username,
    password: opts.password,
    database: opts.database,
    request_timeout: opts.requestTimeoutMs ?? 30000,
    clickhouse_settings: {
      ...opts.settings,
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
