/**
 * Memory of `pnpm start` (issue 28: the embedded stack with 24 trucks at or under 500 MB RSS, or
 * each part's share measured). Each figure is a process of its own, started one after the other:
 * - the stack as `pnpm start` runs it (24 simulated trucks, the demo), RSS SETTLE_S after it said
 *   it is running, with its ingest thread (INGEST_THREADS default) and without (INGEST_THREADS=0);
 * - its parts alone, each in a bare Node process with tsx (the baseline, also measured: this file
 *   loads nothing else at its top, so the baseline holds no store's code): chDB
 *   opened and migrated as the stack opens it, PGlite with every service's migrations applied,
 *   and the services' code loaded without stores (their module graph: fastify, zod, drizzle,
 *   contracts...). A part's share is its process's RSS minus the baseline's.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
    if (part === 'chdb') {
      const { createChdbAnalytics } = await import('@corridor/platform/adapters/clickhouse-chdb');
      const { migrateAnalytics } = await import('@corridor/platform');
      const a = await createChdbAnalytics({ path: join(dir, 'chdb'), database: 'corridor' });
      await migrateAnalytics(a, {});
      await a.client.query({ query: 'SELECT count() FROM positions', format: 'JSONEachRow' }).then((r) => r.json());
    } else if (part === 'pglite') {
      const { createPgliteDb } = await import('@corridor/platform');
      const db = await createPgliteDb(join(dir, 'pglite'));
      for (const svc of ['gateway', 'ops-api', 'journey', 'geofence']) await db.migrate(join(root, 'services', svc, 'drizzle'), svc).catch(() => undefined);
    } else if (part === 'services-code') {
      await Promise.all(['@corridor/gateway', '@corridor/ingest', '@corridor/journey', '@corridor/geofence', '@corridor/ops-api'].map((m) => import(m)));
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
    const child = spawn(process.execPath, ['--import', 'tsx', here], { cwd: root, env: { ...process.env, STACK_MEMORY_PART: part }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('MEMORY '));
      if (line) resolve(JSON.parse(line.slice(7)) as NodeJS.MemoryUsage);
      else reject(new Error(`probe ${part} exited ${code}: ${out.slice(-2000)}`));
    });
  });
}

/** `pnpm start` with its defaults (24 trucks, the demo) on ports of this run; RSS SETTLE_S after it is running. */
async function stackRss(threads: number | undefined): Promise<number> {
  const dataDir = mkdtempSync(join(tmpdir(), 'perf-mem-stack-'));
  const ports = { GATEWAY_PORT: 182, INGEST_PORT: 183, JOURNEY_PORT: 184, GEOFENCE_PORT: 185, OPS_API_PORT: 186, OSMAND_PORT: 155, METRICS_PORT: 192, GT06_PORT: 123, TELTONIKA_PORT: 127, H02_PORT: 113, GPS103_PORT: 101, TK103_PORT: 102, MEITRACK_PORT: 120, JT808_PORT: 115, RUPTELA_PORT: 146, JT701_PORT: 114, QUECLINK_PORT: 104, WIALON_PORT: 139 };
  const env: Record<string, string | undefined> = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(BASE + v)])), ...(threads !== undefined ? { INGEST_THREADS: String(threads) } : {}) };
  for (const k of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL']) delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'tools', 'stack', 'main.ts')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
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
  out.stack_rss_mib = mib(await stackRss(undefined));
  out.stack_rss_mib_one_thread = mib(await stackRss(0));
  const base = await runProbe('baseline');
  out.baseline_node_tsx_rss_mib = mib(base.rss);
  for (const part of ['chdb', 'pglite', 'services-code']) {
    const m = await runProbe(part);
    out[`${part}_rss_share_mib`] = mib(m.rss - base.rss);
    out[`${part}_heap_mib`] = mib(m.heapTotal);
    out[`${part}_external_mib`] = mib(m.external);
  }
  out.load_end = load1m();
  out.setup = `pnpm start with its defaults (24 trucks, the demo), RSS ${SETTLE_S} s after it is running, with its ingest thread (INGEST_THREADS default) and with INGEST_THREADS=0; parts alone each in a Node process with tsx, share = its RSS minus that baseline's`;
  return out;
}
