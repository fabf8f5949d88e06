import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build as buildGeofence } from '@corridor/geofence';
import { build as buildIngest } from '@corridor/ingest';
import { build as buildJourney } from '@corridor/journey';
import { build as buildOpsApi } from '@corridor/ops-api';
import {
  AnalyticsSchemaBehindError,
  createClickHouseAnalytics,
  createLogger,
  createPgliteDb,
  MemoryBus,
  MemoryCache,
  migrateAnalytics,
  readMigrations,
  systemClock,
  type Analytics,
} from '@corridor/platform';
import { startChdbHttp, type ChdbHttpServer } from '@corridor/platform/testing/chdb-http';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { realPart } from '@corridor/platform/testing/real-parts';

/**
 * Services started against a ClickHouse schema older than their version refuse to start, name the
 * migration that is missing, and change no table. The database is CLICKHOUSE_URL's server when set,
 * else chDB behind its HTTP front in this process (so a service process can reach it too), with
 * only the first migration applied: the schema of the version before the newest file.
 */
const files = readMigrations();
const newest = files.at(-1)!.name;
const real = await realPart('clickhouse');
let server: ChdbHttpServer | undefined;
let url: URL;
let ch: Analytics;
let db: Awaited<ReturnType<typeof createPgliteDb>>;
const database = `schema_behind_${Date.now().toString(36)}`;

const tables = async (): Promise<string[]> =>
  (
    await (
      await ch.client.query({
        query: `SELECT name, toString(uuid) AS uuid, create_table_query FROM system.tables WHERE database = '${database}' ORDER BY name`,
        format: 'JSONEachRow',
      })
    ).json<{ name: string }>()
  ).map((t) => JSON.stringify(t));

beforeAll(async () => {
  if (!real) server = await startChdbHttp({ path: ':memory:' });
  url = new URL(real?.url ?? server!.url);
  ch = await createClickHouseAnalytics({
    url: `${url.protocol}//${url.host}`,
    username: decodeURIComponent(url.username || 'default'),
    password: decodeURIComponent(url.password),
    database,
    createDatabase: true,
  });
  await migrateAnalytics(ch, { files: files.slice(0, -1) });
  db = await createPgliteDb(); // one for the four services: each stops before its own migrations
}, 60_000);
afterAll(async () => {
  await ch?.client.command({ query: `DROP DATABASE IF EXISTS ${database}` }).catch(() => undefined);
  await ch?.close();
  await db?.close();
  await server?.close();
});

describe('a service started against a ClickHouse schema behind its version', () => {
  const builders: [string, (deps: Parameters<typeof buildIngest>[0]) => Promise<unknown>][] = [
    ['ingest', (deps) => buildIngest(deps)],
    ['journey', (deps) => buildJourney(deps, { sweepIntervalMs: 0 })],
    ['geofence', (deps) => buildGeofence(deps)],
    ['ops-api', (deps) => buildOpsApi(deps)],
  ];

  it.each(builders)(
    '%s refuses to build, naming the missing migration, and touches no table',
    async (_, build) => {
      const before = await tables();
      const bus = new MemoryBus();
      try {
        const attempt = build({
          bus,
          db,
          analytics: ch,
          cache: new MemoryCache(),
          clock: systemClock,
          logger: createLogger('test', 'silent'),
          identitySecret: TEST_IDENTITY_SECRET,
        });
        await expect(attempt).rejects.toBeInstanceOf(AnalyticsSchemaBehindError);
        await expect(attempt).rejects.toThrow(`migration ${newest} is not applied`);
      } finally {
        await bus.close();
      }
      expect(await tables()).toEqual(before);
    },
    60_000,
  );

  it("a service process (journey's main.ts) exits at start with the message naming the migration", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'corridor-schema-behind-'));
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', fileURLToPath(new URL('../../services/journey/src/main.ts', import.meta.url))],
        {
          env: {
            PATH: process.env.PATH,
            NODE_ENV: 'development',
            LOG_LEVEL: 'info',
            HOST: '127.0.0.1',
            PORT: '0',
            METRICS_PORT: '0',
            DATA_DIR: dataDir,
            CLICKHOUSE_URL: `${url.protocol}//${url.host}`,
            CLICKHOUSE_USER: decodeURIComponent(url.username || 'default'),
            CLICKHOUSE_PASSWORD: decodeURIComponent(url.password),
            CLICKHOUSE_DATABASE: database,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (d: Buffer) => (output += d.toString()));
      child.stderr.on('data', (d: Buffer) => (output += d.toString()));
      const code = await new Promise<number | null>((ok) => child.on('exit', ok));
      expect(code, output).toBe(1);
      const fatal = output
        .split('\n')
        .filter((l) => l.includes('"level":60'))
        .map((l) => JSON.parse(l) as { msg: string; err?: { message: string } });
      expect(fatal).toHaveLength(1);
      expect(fatal[0]!.msg).toBe('journey failed to start');
      expect(fatal[0]!.err?.message).toContain(
        `The ClickHouse database ${database} is behind this version: migration ${newest} is not applied. Run the migrate step first`,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
