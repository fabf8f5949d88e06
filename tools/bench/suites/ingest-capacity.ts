/**
 * Ingest alone (decode → device lookup → sanity → track state → publish → ack, with its position
 * writer and raw-frame archive), as it runs in its own process in production, on the parts the
 * environment names (real Kafka, PostgreSQL, Redis when set; chDB unless CLICKHOUSE_URL): GT06
 * trackers over TCP from a child process (tools/bench/load-devices.ts) send as fast as their acks
 * allow, each keeping at most WINDOW frames unacknowledged. A device's ack is written only after
 * the broker acknowledged its fix (acks=all), in every variant.
 *
 * Each run is a fresh ingest process (this file with INGEST_CAPACITY_ROLE=ingest) with its own
 * trackers, so variants that differ in node flags compare within one bench run. The variants
 * alternate (A B C A B C) so a change of machine load hits each:
 * - `before`: node's default young generation (16 MB semi-spaces) and one Redis write per command;
 * - `pipelined`: the same with Redis auto-pipelining, as deployed (packages/platform/src/adapters/cache-redis.ts);
 * - `semi32`: `pipelined` with 32 MB semi-spaces (less scavenging; a candidate, not deployed: GC
 *   takes a quarter of ingest's CPU in a profile of this load).
 * All include every other change (the track state saved off the ack path, track-store.ts).
 *
 * Figures per run: the acked rate, ack latency seen by the trackers, the CPU time of the ingest
 * process per acked fix (the trackers' CPU is their own process's), the share of one core ingest
 * got, and the load average at the start and end; then per variant the means, and ratios to `before`.
 * The trackers' process shares the two cores with ingest and the rest of the machine.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { load1m } from '../parts';
import { round } from '../stats';

const DEVICES = 400;
const WINDOW = 4;
const WARMUP_S = 6;
const CAPACITY_S = 15;
const ROUNDS = 2;
const SEMI_SPACE_MB = 32;

interface RunFigures {
  parts: string;
  acked_per_s: number;
  ack_p50_ms: number;
  ack_p99_ms: number;
  cpu_share_of_one_core: number;
  acked_per_cpu_second: number;
}

const VARIANTS = {
  before: { nodeFlags: [] as string[], autoPipelining: false },
  pipelined: { nodeFlags: [] as string[], autoPipelining: true },
  semi32: { nodeFlags: [`--max-semi-space-size=${SEMI_SPACE_MB}`], autoPipelining: true },
};
const ORDER: Variant[] = ['before', 'pipelined', 'semi32'];
type Variant = keyof typeof VARIANTS;

// ---------------------------------------------------------------- ingest side (child process)

async function ingestProcess(): Promise<void> {
  const { build } = await import('@corridor/ingest');
  const { TEST_IDENTITY_SECRET } = await import('@corridor/platform/testing/identity');
  const { LoadDevices, loadImei } = await import('../load-devices');
  const { benchAdapters, partsOf, primaryBenchKind } = await import('../parts');
  const adapters = await benchAdapters(await primaryBenchKind());
  const redis = (adapters.cache as { redis?: { options: { enableAutoPipelining?: boolean } } }).redis;
  if (redis) redis.options.enableAutoPipelining = process.env.AUTO_PIPELINING === 'true';
  const ingest = await build({ ...adapters, identitySecret: TEST_IDENTITY_SECRET, logger: adapters.logger });
  let devices: InstanceType<typeof LoadDevices> | undefined;
  try {
    await ingest.start();
    for (let i = 0; i < DEVICES; i++) ingest.registry.apply({ id: 60_001 + i, uniqueId: loadImei(i), name: `load ${i}`, disabled: false, companyId: null, groupId: null, status: 'online', deleted: false });
    const port = await ingest.ports.tcp.gt06.listen(0, '127.0.0.1');
    devices = new LoadDevices(port, DEVICES, Date.now() - Number(process.env.DAYS_BACK) * 86_400_000);
    await devices.ready();
    await devices.run({ cmd: 'closed', seconds: WARMUP_S, window: WINDOW });
    const cpu0 = process.cpuUsage();
    const res = await devices.run({ cmd: 'closed', seconds: CAPACITY_S, window: WINDOW });
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const figures: RunFigures = {
      parts: partsOf(adapters),
      acked_per_s: Math.round(res.acked / res.seconds),
      ack_p50_ms: res.p50Ms,
      ack_p99_ms: res.p99Ms,
      cpu_share_of_one_core: round(cpuSeconds / res.seconds),
      acked_per_cpu_second: Math.round(res.acked / cpuSeconds),
    };
    process.stdout.write(`INGEST_CAPACITY ${JSON.stringify(figures)}\n`);
  } finally {
    await devices?.stop();
    await ingest.close().catch(() => undefined);
    await adapters.close();
  }
  process.exit(0);
}

if (process.env.INGEST_CAPACITY_ROLE === 'ingest') await ingestProcess();

// ---------------------------------------------------------------- orchestration (bench process)

function runIngest(variant: Variant, daysBack: number): Promise<RunFigures> {
  const v = VARIANTS[variant];
  const child = spawn(process.execPath, [...v.nodeFlags, '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, INGEST_CAPACITY_ROLE: 'ingest', AUTO_PIPELINING: String(v.autoPipelining), DAYS_BACK: String(daysBack) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let figures: RunFigures | undefined;
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (l.startsWith('INGEST_CAPACITY ')) figures = JSON.parse(l.slice('INGEST_CAPACITY '.length)) as RunFigures;
    });
    child.once('error', reject);
    child.once('exit', (code) => (figures ? resolve(figures) : reject(new Error(`ingest run (${variant}) exited with ${code} without figures`))));
  });
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  const sums = Object.fromEntries(ORDER.map((v) => [v, { acked: 0, perCpu: 0 }])) as Record<Variant, { acked: number; perCpu: number }>;
  let daysBack = 120;
  for (let r = 1; r <= ROUNDS; r++) {
    for (const variant of ORDER) {
      const name = `${variant}${r}`;
      out[`${name}_load_start`] = load1m();
      // each run's fixes are dated apart from every other run's (a fix of the same second would be a duplicate)
      const f = await runIngest(variant, (daysBack -= 5));
      out[`${name}_load_end`] = load1m();
      out.parts = f.parts;
      for (const [k, v] of Object.entries(f)) if (k !== 'parts') out[`${name}_${k}`] = v;
      sums[variant].acked += f.acked_per_s;
      sums[variant].perCpu += f.acked_per_cpu_second;
    }
  }
  for (const variant of ORDER) {
    out[`${variant}_acked_per_s_mean`] = Math.round(sums[variant].acked / ROUNDS);
    out[`${variant}_acked_per_cpu_second_mean`] = Math.round(sums[variant].perCpu / ROUNDS);
  }
  for (const variant of ['pipelined', 'semi32'] as const) {
    out[`${variant}_to_before_acked_per_s`] = round(sums[variant].acked / sums.before.acked);
    out[`${variant}_to_before_acked_per_cpu_second`] = round(sums[variant].perCpu / sums.before.perCpu);
  }
  out.setup =
    `ingest alone, a fresh process per run; ${DEVICES} GT06 trackers over TCP (their own process), at most ${WINDOW} frames unacknowledged each; ` +
    `${WARMUP_S} s warm-up, ${CAPACITY_S} s measured; variants alternate ${ROUNDS} rounds: before = node defaults, Redis one write per command; ` +
    `pipelined = node defaults, Redis auto-pipelining (as deployed); semi32 = pipelined with --max-semi-space-size=${SEMI_SPACE_MB} (not deployed)`;
  return out;
}
