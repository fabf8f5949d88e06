/**
 * Memory of `pnpm start` (issue 28: the embedded stack with 24 trucks at or under 500 MB RSS, or
 * each part's share measured). Each figure is a process of its own, started one after the other:
 * - the stack as `pnpm start` runs it (24 simulated trucks, the demo), RSS SETTLE_S after it said
 *   it is running, with its ingest thread (INGEST_THREADS default) and without (INGEST_THREADS=0);
 * - its parts alone, each in a bare Node process with tsx (the baseline, also measured: this file
 *   loads nothing else at its top, so the baseline holds no store's code): chDB
 *   opened and migrated as the stack opens it, PGlite with every service's migrations applied,
 *   and the services' code loaded without stores (their module graph: fastify, zod, drizzle,
 *   contracts...). Every part's probe loads @corridor/platform first (its index loads every
 *   adapter's client library), so a part's share is its process's RSS minus that of a process that
 *   loaded only the platform; the platform's own share is above the bare baseline.
 * - before/after of the memory settings (issue 28): the stack with PGlite's shared buffers at
 *   initdb's 128 MiB, and chDB with a server's cache sizes (engineArgs []), in the same run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssOf } from '../traccar/systems';

const SETTLE_S = Number(process.env.SETTLE_S ?? 90);
const BASE = Number(process.env.BENCH_BASE ?? 29000);
const here = fileURLToPath(import.meta.url);
const root = join(here, '..', '..', '..', '..');
const mib = (b: number): number => Math.round(b / 2 ** 20);

// ---------------------------------------------------------------- part probes (child processes)

async function probe(part: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'perf-mem-'));
  try {
    if (part !== 'baseline') await import('@corridor/platform');
    if (part === 'chdb' || part === 'chdb-server-caches') {
      const { createChdbAnalytics } = await import('@corridor/platform/adapters/clickhouse-chdb');
      const { migrateAnalytics } = await import('@corridor/platform');
      const a = await createChdbAnalytics({
        path: join(dir, 'chdb'),
        database: 'corridor',
        ...(part === 'chdb-server-caches' ? { engineArgs: [] } : {}),
      });
      await migrateAnalytics(a, {});
      await a.client.query({ query: 'SELECT count() FROM positions', format: 'JSONEachRow' }).then((r) => r.json());
      // a workload that reads marks and primary keys of many parts (what the caches hold): 40 inserts of 50,000 rows, then filtered reads
      await a.client.command({
        query:
          'CREATE TABLE probe_fixes (device UInt32, t DateTime64(3), lat Float64, lon Float64, speed Float32) ENGINE = MergeTree ORDER BY (device, t) SETTINGS index_granularity = 1024',
      });
      for (let i = 0; i < 40; i++) {
        await a.client.command({
          query: `INSERT INTO probe_fixes SELECT number % 500, toDateTime64('2026-01-01', 3) + number * 7 + ${i * 50_000 * 7}, -1.3 + (number % 1000) / 1e4, 36.8 + (number % 777) / 1e4, number % 90 FROM numbers(50000)`,
        });
      }
      for (let d = 0; d < 100; d++) {
        await a.client
          .query({
            query: `SELECT count(), avg(speed), max(t) FROM probe_fixes WHERE device = ${d * 5} AND t > toDateTime64('2026-01-02', 3)`,
            format: 'JSONEachRow',
          })
          .then((r) => r.json());
      }
    } else if (part === 'pglite' || part === 'pglite-128mb') {
      const { createPgliteDb } = await import('@corridor/platform');
      const db = await createPgliteDb(join(dir, 'pglite'), part === 'pglite-128mb' ? { sharedBuffersMb: 128 } : {});
      for (const svc of ['gateway', 'ops-api', 'journey', 'geofence'])
        await db.migrate(join(root, 'services', svc, 'drizzle'), svc).catch(() => undefined);
    } else if (part === 'services-code') {
      await Promise.all(
        ['@corridor/gateway', '@corridor/ingest', '@corridor/journey', '@corridor/geofence', '@corridor/ops-api'].map((m) => import(m)),
      );
    }
    global.gc?.();
    await new Promise((r) => setTimeout(r, 2000));
    process.stdout.write(`MEMORY ${JSON.stringify(process.memoryUsage())}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.exit(0);
}

if (process.env.STACK_MEMORY_PART) await probe(process.env.STACK_MEMORY_PART);

function runProbe(part: string): Promise<NodeJS.MemoryUsage> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', here], {
      cwd: root,
      env: { ...process.env, STACK_MEMORY_PART: part },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('MEMORY '));
      if (line) resolve(JSON.parse(line.slice(7)) as NodeJS.MemoryUsage);
      else reject(new Error(`probe ${part} exited ${code}: ${out.slice(-2000)}`));
    });
  });
}

/**
 * Where a process's resident memory lies (/proc/<pid>/smaps): chDB's library (libchdb.so's pages),
 * the node binary, other mapped files, and anonymous memory (V8's heaps of every thread, PGlite's
 * WebAssembly memory, chDB's and Node's native allocations).
 */
function residentByMapping(pid: number): Record<string, number> {
  const out: Record<string, number> = { chdb_library: 0, node_binary: 0, other_files: 0, anonymous: 0 };
  let where = 'anonymous';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1] ?? '';
      where = path.includes('libchdb')
        ? 'chdb_library'
        : /\/node$/.test(path)
          ? 'node_binary'
          : path.startsWith('/')
            ? 'other_files'
            : 'anonymous';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[where]! += Number(rss[1]) * 1024;
  }
  return out;
}

/** `pnpm start` with its defaults (24 trucks, the demo) on ports of this run; RSS SETTLE_S after it is running (with `parts`: where it lies). */
async function stackRss(threads: number | undefined, extra: Record<string, string> = {}, parts?: Record<string, number>): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'perf-mem-stack-'));
  const ports = {
    GATEWAY_PORT: 182,
    INGEST_PORT: 183,
    JOURNEY_PORT: 184,
    GEOFENCE_PORT: 185,
    OPS_API_PORT: 186,
    OSMAND_PORT: 155,
    METRICS_PORT: 192,
    GT06_PORT: 123,
    TELTONIKA_PORT: 127,
    H02_PORT: 113,
    GPS103_PORT: 101,
    TK103_PORT: 102,
    MEITRACK_PORT: 120,
    JT808_PORT: 115,
    RUPTELA_PORT: 146,
    JT701_PORT: 114,
    QUECLINK_PORT: 104,
    WIALON_PORT: 139,
  };
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(BASE + v)])),
    ...(threads !== undefined ? { INGEST_THREADS: String(threads) } : {}),
    ...extra,
  };
  for (const k of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL']) delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tools', 'stack', 'main.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-10_000)));
  try {
    const until = Date.now() + 600_000;
    while (!out.includes('Corridor is running')) {
      if (child.exitCode !== null || Date.now() > until) throw new Error(`stack did not start: ${out.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    await new Promise((r) => setTimeout(r, SETTLE_S * 1000));
    if (parts) Object.assign(parts, residentByMapping(child.pid!));
    return rssOf(child.pid!);
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default async function run(): Promise<Record<string, number | string>> {
  // imported here, not at the top: the probes' baseline must not load what parts.ts loads (the adapters, chDB's library among them)
  const { load1m } = await import('../parts');
  const out: Record<string, number | string> = { load_start: load1m() };
  const parts: Record<string, number> = {};
  out.stack_rss_mib = mib(await stackRss(undefined, {}, parts));
  for (const [k, v] of Object.entries(parts)) out[`stack_${k}_mib`] = mib(v);
  if (process.env.STACK_MEMORY_ONLY === 'stack') {
    out.load_end = load1m();
    out.setup = `pnpm start with its defaults (24 trucks, the demo), RSS ${SETTLE_S} s after it is running, with its ingest thread (INGEST_THREADS default); where it lies from /proc/<pid>/smaps (chDB's library, the node binary, other files, anonymous)`;
    return out;
  }
  // before/after of PGlite's shared buffers in the same run: initdb's 128 MiB (the default until issue 28) against 16
  out.stack_rss_mib_pglite_128mb = mib(await stackRss(undefined, { PGLITE_SHARED_BUFFERS_MB: '128' }));
  out.stack_rss_mib_one_thread = mib(await stackRss(0));
  const base = await runProbe('baseline');
  out.baseline_node_tsx_rss_mib = mib(base.rss);
  // the platform's module graph (every adapter's client library, chDB's and PGlite's among them, loaded, none opened): the probes below load it too
  const platform = await runProbe('platform');
  out.platform_code_rss_share_mib = mib(platform.rss - base.rss);
  for (const part of ['chdb', 'chdb-server-caches', 'pglite', 'pglite-128mb', 'services-code']) {
    const m = await runProbe(part);
    out[`${part}_rss_share_mib`] = mib(m.rss - platform.rss);
    out[`${part}_heap_mib`] = mib(m.heapTotal);
    out[`${part}_external_mib`] = mib(m.external);
  }
  out.load_end = load1m();
  out.setup = `pnpm start with its defaults (24 trucks, the demo), RSS ${SETTLE_S} s after it is running, with its ingest thread (INGEST_THREADS default), with PGLITE_SHARED_BUFFERS_MB=128 (before issue 28's setting) and with INGEST_THREADS=0; parts alone each in a Node process with tsx that has loaded @corridor/platform, share = its RSS minus that process's (platform_code: above bare Node with tsx); chdb after migrating and a workload of 2 M rows in 40 parts read by 100 filtered queries, with the stack's bounded caches and with a server's (chdb-server-caches); pglite with every service's migrations, at 16 and at 128 MiB of shared buffers`;
  return out;
}
