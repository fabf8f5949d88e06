import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChdbHttp } from '@corridor/platform/testing/chdb-http';
import { freePort } from '@corridor/platform/testing/free-port';
import { stage, START_COMMAND } from '../../delivery/stage';
import { quantile } from '../stats';

/**
 * ops-api's start, as the image ran it before (`node --import tsx src/main.ts`: TypeScript compiled
 * at load, tsx's cache cold as in a new container, and warm) and as it runs it now (`node
 * --conditions=compiled dist/main.js` in the folder tools/delivery/stage.ts lays out): time from
 * spawn to the first 200 on /healthz, and the process's resident memory then. NODE_ENV=production,
 * ClickHouse over HTTP (chDB behind platform's chdb-http, as the images have no chDB; migrated
 * first by the compiled migrate step), PostgreSQL in a database of its own on DATABASE_URL's server
 * when set (migrated by a first start that is not counted) else PGlite, the in-process bus and
 * cache. Runs alternate between the three ways; medians of RUNS each.
 */
const RUNS = Number(process.env.SERVICE_START_RUNS ?? 5);
const median = (xs: number[]): number =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );
const REPO = fileURLToPath(new URL('../../..', import.meta.url));

export default async function serviceStart(): Promise<Record<string, number | string>> {
  const work = mkdtempSync(join(tmpdir(), 'corridor-service-start-'));
  const chdb = await startChdbHttp({ path: join(work, 'chdb') });
  const dbName = `service_start_${randomBytes(4).toString('hex')}`;
  const server = process.env.DATABASE_URL;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: server });
    await c.connect();
    await c.query(sql).finally(() => c.end());
  };
  let databaseUrl: string | undefined;
  if (server) {
    await admin(`CREATE DATABASE ${dbName}`);
    const u = new URL(server);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  }
  try {
    const staged = await stage('ops-api', join(work, 'ops-api'));
    // the migrate step, as the Job runs it (compiled): ClickHouse, then ops-api's PostgreSQL when on a server
    const migrateStep = (args: string[], what: string) =>
      new Promise<void>((done, fail) => {
        const child = spawn(process.execPath, ['--conditions=compiled', 'node_modules/@corridor/platform/dist/migrate-main.js', ...args], {
          cwd: staged.dir,
          stdio: 'ignore',
          env: {
            PATH: process.env.PATH ?? '',
            NODE_ENV: 'production',
            CLICKHOUSE_URL: chdb.url,
            CLICKHOUSE_DATABASE: 'corridor',
            ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          },
        });
        child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`${what} migrate step exited ${code}`))));
      });
    await migrateStep(['--clickhouse'], 'ClickHouse');
    if (databaseUrl) await migrateStep(['--service', 'ops-api'], 'PostgreSQL');
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      INTERNAL_TOKEN_SECRET: randomBytes(36).toString('base64url'),
      CLICKHOUSE_URL: chdb.url,
      CLICKHOUSE_DATABASE: 'corridor',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
    const ways = {
      compiled: { cwd: staged.dir, args: START_COMMAND, extra: {} },
      tsx_cold: { cwd: join(REPO, 'services/ops-api'), args: ['--import', 'tsx', 'src/main.ts'], extra: { TSX_DISABLE_CACHE: '1' } },
      tsx_warm: { cwd: join(REPO, 'services/ops-api'), args: ['--import', 'tsx', 'src/main.ts'], extra: {} },
    };
    const startOnce = async (way: keyof typeof ways, n: number) => {
      const { cwd, args, extra } = ways[way];
      const port = await freePort();
      const started = performance.now();
      const child = spawn(process.execPath, args, {
        cwd,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: { ...env, ...extra, PORT: String(port), DATA_DIR: join(work, `${way}-${n}`) },
      });
      const exited = new Promise<void>((done) => child.on('exit', () => done()));
      try {
        for (;;) {
          if (child.exitCode !== null) throw new Error(`ops-api (${way}) exited ${child.exitCode}`);
          const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => r.ok,
            () => false,
          );
          if (ok) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        const ms = performance.now() - started;
        const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
        return { ms, rssMiB: rssKiB / 1024 };
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    };
    await startOnce('tsx_warm', -1); // warms tsx's cache; not counted
    const results: Record<string, { ms: number[]; rssMiB: number[] }> = {
      compiled: { ms: [], rssMiB: [] },
      tsx_cold: { ms: [], rssMiB: [] },
      tsx_warm: { ms: [], rssMiB: [] },
    };
    for (let n = 0; n < RUNS; n++) {
      for (const way of Object.keys(ways) as (keyof typeof ways)[]) {
        const r = await startOnce(way, n);
        results[way]!.ms.push(r.ms);
        results[way]!.rssMiB.push(r.rssMiB);
      }
    }
    const figures: Record<string, number | string> = {
      setup: `ops-api, NODE_ENV=production, ${databaseUrl ? 'PostgreSQL' : 'PGlite'}, ClickHouse over HTTP (chdb-http), in-process bus and cache; ${RUNS} alternated runs, medians`,
    };
    for (const [way, r] of Object.entries(results)) {
      figures[`${way}.start_to_healthz_ms`] = Math.round(median(r.ms));
      figures[`${way}.rss_at_healthz_MiB`] = Math.round(median(r.rssMiB));
    }
    figures['tsx_cold_over_compiled.start'] = Math.round((median(results.tsx_cold!.ms) / median(results.compiled!.ms)) * 100) / 100;
    figures['tsx_cold_over_compiled.rss'] = Math.round((median(results.tsx_cold!.rssMiB) / median(results.compiled!.rssMiB)) * 100) / 100;
    return figures;
  } finally {
    await chdb.close();
    if (server) await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    rmSync(work, { recursive: true, force: true });
  }
}
