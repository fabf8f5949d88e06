import { createClient, type ClickHouseClient } from '@clickhouse/client';
import { Session } from 'chdb';
import { createChdbConnection } from 'chdb/connection';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Analytics } from './analytics';

/**
 * chDB: the ClickHouse engine in process, plugged into the same @clickhouse/client through
 * `chdb/connection`. libchdb binds ONE data directory per process, so every caller of a process
 * shares one client (the one-process stack's five services, or one test file's suites).
 */
let shared:
  | {
      path: string;
      client: ClickHouseClient;
      connection: ReturnType<typeof createChdbConnection>;
      engine?: Session;
      refs: number;
      databases: Set<string>;
    }
  | undefined;

const MiB = 2 ** 20;
/**
 * The embedded engine's caches, bounded for a process that also holds PGlite and five services:
 * ClickHouse sizes its mark, primary-index and index-mark caches for a server (5 GiB each) and
 * its query-condition cache at 100 MiB. They fill as queries read parts, so they do not change the
 * memory at start (measured, issue 28: the floor is libchdb's code, 140-180 MiB, and the engine's
 * own allocations), only how far a long-running stack can grow.
 */
export const CHDB_ENGINE_ARGS: readonly string[] = [
  `--mark_cache_size=${64 * MiB}`,
  `--primary_index_cache_size=${64 * MiB}`,
  `--index_mark_cache_size=${64 * MiB}`,
  `--query_condition_cache_size=${16 * MiB}`,
];

/**
 * The chDB connection this process opened (createChdbAnalytics), for serving it to worker threads
 * over the ClickHouse HTTP interface (testing/chdb-http.ts with `connection`); undefined before.
 */
export function openChdbConnection(): ReturnType<typeof createChdbConnection> | undefined {
  return shared?.connection;
}

/**
 * `engineArgs` (default CHDB_ENGINE_ARGS) start the engine when this process first opens an
 * on-disk data directory: createChdbConnection takes none, so a session opened first with them
 * starts the engine and the client's connection joins it (chDB keeps one engine per directory).
 * An in-memory store (tests) starts with the engine's defaults.
 */
export async function createChdbAnalytics(opts: { path: string; database: string; engineArgs?: readonly string[] }): Promise<Analytics> {
  const path = opts.path === ':memory:' ? ':memory:' : resolve(opts.path);
  if (shared && shared.path !== path) {
    throw new Error(`chDB already opened at ${shared.path} in this process; it binds one data directory per process (asked for ${path})`);
  }
  if (!shared) {
    if (path !== ':memory:') mkdirSync(path, { recursive: true });
    const args = opts.engineArgs ?? CHDB_ENGINE_ARGS;
    const engine = path !== ':memory:' && args.length ? new Session(path, { connectionArgs: [...args] }) : undefined;
    const connection = createChdbConnection({ path });
    const client = createClient({
      connection,
      clickhouse_settings: { date_time_input_format: 'best_effort' },
    } as Parameters<typeof createClient>[0]);
    shared = { path, client, connection, ...(engine ? { engine } : {}), refs: 0, databases: new Set() };
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
        s.engine?.close();
      }
    },
  };
}
