import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Analytics } from './analytics';

/**
 * chDB: the ClickHouse engine in process, plugged into the same @clickhouse/client through
 * `chdb/connection`. libchdb binds ONE data directory per process, so every caller of a process
 * shares one client (the one-process stack's five services, or one test file's suites).
 */
let shared: { path: string; client: ClickHouseClient; connection: ReturnType<typeof createChdbConnection>; refs: number; databases: Set<string> } | undefined;

/**
 * The chDB connection this process opened (createChdbAnalytics), for serving it to worker threads
 * over the ClickHouse HTTP interface (testing/chdb-http.ts with `connection`); undefined before.
 */
export function openChdbConnection(): ReturnType<typeof createChdbConnection> | undefined {
  return shared?.connection;
}

export async function createChdbAnalytics(opts: { path: string; database: string }): Promise<Analytics> {
  const path = opts.path === ':memory:' ? ':memory:' : resolve(opts.path);
  if (shared && shared.path !== path) {
    throw new Error(`chDB already opened at ${shared.path} in this process; it binds one data directory per process (asked for ${path})`);
  }
  if (!shared) {
    if (path !== ':memory:') mkdirSync(path, { recursive: true });
    const connection = createChdbConnection({ path });
    const client = createClient({
      connection,
      clickhouse_settings: { date_time_input_format: 'best_effort' },
    } as Parameters<typeof createClient>[0]);
    shared = { path, client, connection, refs: 0, databases: new Set() };
  }
  const s = shared;
  s.refs++;
  if (!s.databases.has(opts.database)) {
    await s.client.command({ query: `CREATE DATABASE IF NOT EXISTS ${opts.database}` });
    s.databases.add(opts.database);
  }
  // the chDB session is stateful: unqualified table names resolve in the current database
  await s.client.command({ query: `USE ${opts.database}` });
  let closed = false;
  return {
    kind: 'chdb',
    client: s.client,
    database: opts.database,
    async ping() {
      await s.client.query({ query: 'SELECT 1', format: 'JSONEachRow' }).then((r) => r.json());
    },
    async close() {
      if (closed) return;
      closed = true;
      s.refs--;
      if (s.refs === 0 && shared === s) {
        shared = undefined;
        await s.client.close();
      }
    },
  };
}
