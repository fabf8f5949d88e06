/**
 * The two servers of `pnpm bench traccar`, each started alone as a child process tree, with the
 * processes whose CPU counts as its own: Traccar (java, H2 inside it, or PostgreSQL backends of its
 * database) and Corridor (`pnpm start`'s process with its ingest threads, and on real parts the
 * PostgreSQL backends of its database, the Kafka broker and Redis), or Corridor's ingest alone as a
 * production pod runs it (its process with a thread per core; the stores: Kafka, Redis, PostgreSQL
 * backends and the analytics store's process).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RedisCache } from '@corridor/platform';
import { registerDevices } from '@corridor/platform/testing/registry';
import { createDatabase, dropDatabase } from '../../scale/own-database';
import { ServiceProcess } from '../../scale/service-process';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..', '..');
const TICKS = 100; // USER_HZ on Linux

/** CPU seconds (utime + stime) of a process, 0 when it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds of a process's threads so far, by kind of thread (their names, /proc/PID/task/TID/comm):
 * the process's first thread (`main`: Node's main thread), ingest threads (`ingest-N`), V8's helpers (`V8Worker`: the
 * collector's and the compiler's), libuv's pool (`libuv-worker`), and the rest (chDB's `ThreadPool`,
 * `MergeMutate` and threads that kept the name `MainThread`; a JVM's threads). Per thread, so that a shared machine's preemption,
 * which a profile's wall-clock samples count, does not (issue 28: where each fix's CPU goes).
 */
export function threadCpuOf(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind =
        tid === String(pid)
          ? 'main'
          : /^ingest-\d+$/.test(name)
            ? 'ingest'
            : name === 'V8Worker' || name === 'libuv-worker'
              ? name
              : 'other';
      out[kind] = (out[kind] ?? 0) + (Number(fields[11]) + Number(fields[12])) / TICKS;
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Resident memory (bytes) of a process, 0 when it is gone. */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** Pids whose command line matches. */
function pidsMatching(test: (cmdline: string) => boolean): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => test(cmdlineOf(pid)));
}

export interface RunningSystem {
  name: string;
  gt06Port: number;
  /** The server's own processes (java; node). */
  serverPids(): number[];
  /** The stores it uses that run apart from it (PostgreSQL backends, Kafka, Redis); shared stores also serve others. */
  storePids(): number[];
  registerDevices(imeis: string[]): Promise<void>;
  stop(): Promise<void>;
  /** Corridor's /metrics (its threads' histograms added up), read around each phase. */
  metricsUrl?: string;
}

async function waitFor(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${what}: not within ${ms / 1000} s`);
}

const postgresBackendsOf = (db: string) => (): number[] => pidsMatching((c) => c.startsWith('postgres: ') && c.includes(` ${db} `));

/**
 * The process listening on a TCP port of this machine (the shared Kafka broker, Redis), from
 * `ss`; undefined when none is seen. Matching command lines instead ('redis-server', 'kafka.Kafka')
 * also counted other runs' brokers and Redis, whose CPU came and went within a phase.
 */
function listenerPid(port: number): number | undefined {
  const r = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' });
  const m = /pid=(\d+)/.exec(r.stdout ?? '');
  return m ? Number(m[1]) : undefined;
}

const portOf = (hostPort: string, fallback: number): number => Number(/:(\d+)$/.exec(hostPort)?.[1] ?? fallback);

function stopTree(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.pid === undefined) return resolve();
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 30_000);
    child.once('exit', () => (clearTimeout(timer), resolve()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

// ---------------------------------------------------------------- Traccar

/** Builds Traccar from TRACCAR_SRC into `home` unless it is built there already (build-traccar.sh, about 3 minutes). */
export function buildTraccar(home: string, log: (m: string) => void): void {
  if (existsSync(join(home, 'classes', 'org', 'traccar', 'Main.class'))) return;
  const src = process.env.TRACCAR_SRC;
  if (!src)
    throw new Error('TRACCAR_SRC: set it to an unpacked checkout of Traccar (6.14.5 was measured), or TRACCAR_HOME to a build of it');
  log(`building Traccar from ${src} into ${home}`);
  const r = spawnSync('bash', [join(here, 'build-traccar.sh')], {
    env: { ...process.env, TRACCAR_HOME: home, TRACCAR_SRC: src },
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`build-traccar.sh failed (${r.status})`);
}

export async function startTraccar(opts: {
  home: string;
  kind: 'h2' | 'pg';
  databaseUrl?: string;
  ports: { gt06: number; teltonika: number; web: number };
}): Promise<RunningSystem> {
  const dbName = 'perf_bench_traccar';
  let jdbc = '';
  if (opts.kind === 'pg') {
    const url = new URL(await createDatabase(opts.databaseUrl!, dbName));
    jdbc = `jdbc:postgresql://${url.hostname}:${url.port}/${dbName}`;
  } else {
    rmSync(join(opts.home, 'data'), { recursive: true, force: true });
  }
  const pidfile = join(opts.home, `traccar-${process.pid}.pid`);
  const r = spawnSync('bash', [join(here, 'start-traccar.sh')], {
    env: {
      ...process.env,
      TRACCAR_HOME: opts.home,
      PIDFILE: pidfile,
      TRACCAR_CONF: opts.kind === 'pg' ? 'traccar-pg.xml' : 'traccar.xml',
      TRACCAR_GT06_PORT: String(opts.ports.gt06),
      TRACCAR_TELTONIKA_PORT: String(opts.ports.teltonika),
      TRACCAR_WEB_PORT: String(opts.ports.web),
      TRACCAR_JDBC_URL: jdbc,
    },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`Traccar did not start: ${r.stdout}${r.stderr}`);
  const leader = Number(readFileSync(pidfile, 'utf8').trim());
  const api = `http://127.0.0.1:${opts.ports.web}/api`;
  const admin = { email: 'bench@traccar.local', password: 'bench-password' };
  const auth = `Basic ${Buffer.from(`${admin.email}:${admin.password}`).toString('base64')}`;
  const created = await fetch(`${api}/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', ...admin }),
  });
  if (!created.ok) throw new Error(`Traccar: first user not created (${created.status} ${await created.text()})`);
  return {
    name: `traccar-${opts.kind}`,
    gt06Port: opts.ports.gt06,
    serverPids: () => [leader],
    storePids: opts.kind === 'pg' ? postgresBackendsOf(dbName) : () => [],
    async registerDevices(imeis) {
      for (const uniqueId of imeis) {
        const res = await fetch(`${api}/devices`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({ name: uniqueId, uniqueId }),
        });
        if (!res.ok) throw new Error(`Traccar: device ${uniqueId} not created (${res.status})`);
      }
    },
    async stop() {
      try {
        process.kill(-leader, 'SIGTERM');
      } catch {
        /* gone */
      }
      await waitFor('Traccar stopped', async () => !existsSync(`/proc/${leader}`), 60_000).catch(() => {
        try {
          process.kill(-leader, 'SIGKILL');
        } catch {
          /* gone */
        }
      });
      if (opts.kind === 'pg') await dropDatabase(opts.databaseUrl!, dbName);
    },
  };
}

// ---------------------------------------------------------------- Corridor

const DEVICE_PORTS = ['GT06', 'TELTONIKA', 'H02', 'GPS103', 'TK103', 'MEITRACK', 'JT808', 'RUPTELA', 'JT701', 'QUECLINK', 'WIALON'];

/** `pnpm start` (tools/stack/main.ts) in a process of its own: embedded, or on the real parts of the environment in a database, key prefix and topic namespace of its own. */
export async function startCorridor(opts: {
  kind: 'embedded' | 'real';
  base: number;
  threads?: number;
  cpuProfileDir?: string;
  /** Stack settings beyond the bench's (INGEST_THREAD_ACK). */
  env?: Record<string, string>;
}): Promise<RunningSystem> {
  const dataDir = mkdtempSync(join(tmpdir(), 'perf-bench-corridor-'));
  const dbName = 'perf_bench_corridor';
  const env: Record<string, string | undefined> = {
    ...process.env,
    DATA_DIR: dataDir,
    DEMO: 'false',
    SIM_TRUCKS: '0',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    GATEWAY_PORT: String(opts.base + 82),
    INGEST_PORT: String(opts.base + 83),
    JOURNEY_PORT: String(opts.base + 84),
    GEOFENCE_PORT: String(opts.base + 85),
    OPS_API_PORT: String(opts.base + 86),
    OSMAND_PORT: String(opts.base + 55),
    METRICS_PORT: String(opts.base + 92),
    ...Object.fromEntries(DEVICE_PORTS.map((p) => [`${p}_PORT`, p === 'GT06' ? String(opts.base + 23) : '0'])),
    ...(opts.threads !== undefined ? { INGEST_THREADS: String(opts.threads) } : {}),
    ...opts.env,
  };
  for (const k of ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL']) if (opts.kind === 'embedded') delete env[k];
  if (opts.kind === 'real') {
    env.DATABASE_URL = await createDatabase(process.env.DATABASE_URL!, dbName);
    env.KAFKA_NAMESPACE = `perfbench${Date.now()}`;
    env.REDIS_KEY_PREFIX = `${env.KAFKA_NAMESPACE}:`;
  }
  const args = [
    ...(opts.cpuProfileDir ? [`--cpu-prof`, `--cpu-prof-dir=${opts.cpuProfileDir}`] : []),
    '--import',
    'tsx',
    join(root, 'tools', 'stack', 'main.ts'),
  ];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const gateway = `http://127.0.0.1:${opts.base + 82}`;
  try {
    await waitFor(
      'Corridor started',
      async () => {
        if (child.exitCode !== null) throw new Error(`Corridor exited (${child.exitCode}): ${out.slice(-3000)}`);
        return out.includes('Corridor is running');
      },
      600_000,
    );
  } catch (err) {
    await stopTree(child);
    throw err;
  }
  const auth = `Basic ${Buffer.from('admin@corridor.local:corridor-admin').toString('base64')}`;
  const pid = child.pid!;
  const shared =
    opts.kind === 'real'
      ? [
          listenerPid(portOf(process.env.KAFKA_BROKERS!.split(',')[0]!, 9092)),
          listenerPid(Number(new URL(process.env.REDIS_URL!).port || 6379)),
        ].filter((p): p is number => p !== undefined)
      : [];
  return {
    name: `corridor-${opts.kind}`,
    gt06Port: opts.base + 23,
    metricsUrl: `http://127.0.0.1:${opts.base + 92}/metrics`,
    serverPids: () => [pid],
    storePids: opts.kind === 'real' ? () => [...postgresBackendsOf(dbName)(), ...shared] : () => [],
    async registerDevices(imeis) {
      for (const uniqueId of imeis) {
        const res = await fetch(`${gateway}/api/devices`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({ name: uniqueId, uniqueId }),
        });
        if (!res.ok) throw new Error(`Corridor: device ${uniqueId} not created (${res.status} ${await res.text()})`);
      }
    },
    async stop() {
      await stopTree(child);
      rmSync(dataDir, { recursive: true, force: true });
      if (opts.kind === 'real') await dropDatabase(process.env.DATABASE_URL!, dbName);
    },
  };
}

/**
 * Corridor's ingest service alone, as a production pod runs it (services/ingest/src/main.ts: a
 * worker thread per core on the device ports, SO_REUSEPORT), on the real parts of the environment
 * (Kafka, Redis, PostgreSQL: a topic namespace, key prefix and database of its own) and ClickHouse
 * over HTTP from a process of its own (analytics-store.ts: chDB, as no server can run here). A fix
 * is acknowledged once Kafka acknowledged its publish; ingest's own position writer and raw-frame
 * archive store it. No evaluator, API or console runs. Devices are registered as ops-api registers
 * them (the shared cache's registry entries, which ingest falls back on for a device not read from
 * devices.v1).
 */
export async function startCorridorIngest(opts: { base: number }): Promise<RunningSystem> {
  const dir = mkdtempSync(join(tmpdir(), 'perf-bench-ingest-'));
  const dbName = 'perf_bench_ingest';
  const namespace = `perfbenchingest${Date.now()}`;
  const store = spawn(process.execPath, ['--import', 'tsx', join(here, 'analytics-store.ts')], {
    cwd: root,
    env: { ...process.env, CHDB_DIR: join(dir, 'chdb'), CLICKHOUSE_DATABASE: namespace },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let ingest: ServiceProcess | undefined;
  let cache: RedisCache | undefined;
  const stop = async (): Promise<void> => {
    await ingest?.kill('SIGTERM');
    cache?.redis.disconnect();
    await stopTree(store);
    await dropDatabase(process.env.DATABASE_URL!, dbName).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      store.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /ANALYTICS_STORE (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      store.once('exit', (code) => reject(new Error(`analytics store exited (${code}) before serving`)));
    });
    const env: Record<string, string> = {
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      KAFKA_BROKERS: process.env.KAFKA_BROKERS!,
      KAFKA_NAMESPACE: namespace,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: `${namespace}:`,
      DATABASE_URL: await createDatabase(process.env.DATABASE_URL!, dbName),
      CLICKHOUSE_URL: url,
      CLICKHOUSE_DATABASE: namespace,
      METRICS_PORT: String(opts.base + 92),
      OSMAND_PORT: '0',
      ...Object.fromEntries(DEVICE_PORTS.map((p) => [`${p}_PORT`, p === 'GT06' ? String(opts.base + 23) : '0'])),
    };
    ingest = new ServiceProcess('ingest', 'ingest', opts.base + 83, env, join(dir, 'ingest.log'));
    await ingest.startUntilReady(1);
    cache = new RedisCache(process.env.REDIS_URL!, { keyPrefix: `${namespace}:` });
  } catch (err) {
    await stop();
    throw err;
  }
  const pid = ingest.pid!;
  const shared = [
    listenerPid(portOf(process.env.KAFKA_BROKERS!.split(',')[0]!, 9092)),
    listenerPid(Number(new URL(process.env.REDIS_URL!).port || 6379)),
  ].filter((p): p is number => p !== undefined);
  const registry = cache;
  return {
    name: 'corridor-ingest',
    gt06Port: opts.base + 23,
    metricsUrl: `http://127.0.0.1:${opts.base + 92}/metrics`,
    serverPids: () => [pid],
    storePids: () => [...postgresBackendsOf(dbName)(), ...shared, ...(store.pid ? [store.pid] : [])],
    async registerDevices(imeis) {
      await registerDevices(
        registry,
        imeis.map((uniqueId, i) => ({ id: i + 1, uniqueId })),
      );
    },
    stop,
  };
}
