/**
 * Ingest alone (decode → device lookup → sanity → track state → publish → ack, with its position
 * writer and raw-frame archive), as it runs in its own process in production, on the parts the
 * environment names (real Kafka, PostgreSQL, Redis when set; chDB unless CLICKHOUSE_URL): GT06
 * trackers over TCP from a child process (tools/bench/traccar/load-fleet.ts), each keeping at most
 * WINDOW frames unacknowledged. A device's ack is written only after the broker acknowledged its
 * fix (acks=all), in every variant.
 *
 * Each run is a fresh ingest process (this file with INGEST_CAPACITY_ROLE=ingest, started as the
 * broker-restart test starts it: services/ingest/src/testing/gt06-ingest.ts) with its own
 * trackers. The variants alternate (A B A B) so a change of machine load hits each:
 * - `one_by_one`: a connection's frames handed to the durable path one at a time (one publish, one
 *   track-state save and one ack write per frame), as before batching;
 * - `batched`: every frame a connection has queued handled as one batch (one publish, one
 *   track-state save per device, one ack write), as deployed.
 * Both include every other change.
 *
 * Per run: the capacity C (every tracker sends as fast as its acks allow), then offered load at
 * 50 %, 100 % and 150 % of that run's C. For each phase: the acked rate, ack latency seen by the
 * trackers (frame written → ack read), the CPU time of the ingest process per acked fix, counted
 * until its consumers caught up (its position writer stored the phase's fixes; the trackers' CPU
 * is their own process's), the share of one core ingest got (load and catch-up), and the load average at
 * the start and end; then per variant the means, and ratios to `one_by_one`. The trackers' process
 * shares the two cores with ingest and the rest of the machine.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { round } from '../stats';

const DEVICES = 400;
const WINDOW = 4;
const WARMUP_S = 6;
const CAPACITY_S = 15;
const RATE_S = 10;
const RATES_PCT = [50, 100, 150];
const ROUNDS = 3;

interface PhaseFigures {
  load_start: number;
  load_end: number;
  acked_per_s: number;
  ack_p50_ms: number;
  ack_p99_ms: number;
  cpu_share_of_one_core: number;
  /** seconds after the load until ingest's consumers had stored everything */
  catch_up_s: number;
  acked_per_cpu_second: number;
  backlog_at_end: number;
}
interface RunFigures {
  parts: string;
  phases: Record<string, PhaseFigures & { offered_per_s?: number }>;
}

/** batchFrames: the most frames of a connection handed over at once (ingest's default 8 = every admitted frame). */
const VARIANTS = {
  one_by_one: { batchFrames: 1 },
  batched: { batchFrames: 0 },
};
const ORDER: Variant[] = ['one_by_one', 'batched'];
type Variant = keyof typeof VARIANTS;

// ---------------------------------------------------------------- ingest side (child process)

async function ingestProcess(): Promise<void> {
  const { startGt06Ingest } = await import('@corridor/ingest/testing/gt06-ingest');
  const { TEST_IDENTITY_SECRET } = await import('@corridor/platform/testing/identity');
  const { LoadFleet, fleetImei } = await import('../traccar/load-fleet');
  const { benchAdapters, load1m, partsOf, primaryBenchKind } = await import('../parts');
  const adapters = await benchAdapters(await primaryBenchKind());
  const batchFrames = Number(process.env.BATCH_FRAMES);
  const { svc: ingest, port } = await startGt06Ingest(
    { ...adapters, identitySecret: TEST_IDENTITY_SECRET, logger: adapters.logger, ...(batchFrames ? { tuning: { batchFrames } } : {}) },
    Array.from({ length: DEVICES }, (_, i) => ({ id: 60_001 + i, uniqueId: fleetImei(i) })),
  );
  let devices: InstanceType<typeof LoadFleet> | undefined;
  try {
    devices = new LoadFleet({
      port,
      first: 0,
      count: DEVICES,
      processes: 1,
      t0: Date.now() - Number(process.env.DAYS_BACK) * 86_400_000,
      spareFrom: DEVICES,
      spares: 0,
    });
    await devices.ready();
    await devices.run({ cmd: 'closed', seconds: WARMUP_S, window: WINDOW });
    const { settle } = await import('../caught-up');
    // each phase's CPU is counted until ingest's consumers (its position writer above all) stored
    // what the phase published: the cost of a fix includes storing it
    await settle([ingest.app]);
    const phase = async (command: Parameters<InstanceType<typeof LoadFleet>['run']>[0]): Promise<PhaseFigures> => {
      const load_start = load1m();
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      const res = await devices!.run(command);
      await settle([ingest.app]);
      const cpu = process.cpuUsage(cpu0);
      const wallSeconds = (performance.now() - wall0) / 1000;
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      return {
        load_start,
        load_end: load1m(),
        acked_per_s: Math.round(res.acked / res.seconds),
        ack_p50_ms: res.p50Ms,
        ack_p99_ms: res.p99Ms,
        cpu_share_of_one_core: round(cpuSeconds / wallSeconds), // load and catch-up
        catch_up_s: round(wallSeconds - res.seconds),
        acked_per_cpu_second: Math.round(res.acked / cpuSeconds),
        backlog_at_end: res.backlog,
      };
    };
    const figures: RunFigures = { parts: partsOf(adapters), phases: {} };
    const capacity = await phase({ cmd: 'closed', seconds: CAPACITY_S, window: WINDOW });
    figures.phases.capacity = capacity;
    for (const pct of RATES_PCT) {
      const perSecond = Math.round((capacity.acked_per_s * pct) / 100);
      figures.phases[`at_${pct}pct`] = {
        offered_per_s: perSecond,
        ...(await phase({ cmd: 'rate', perSecond, seconds: RATE_S, window: WINDOW })),
      };
    }
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

/** A profile of one run: `INGEST_CAPACITY_ROLE=ingest BATCH_FRAMES=0 DAYS_BACK=200 node --cpu-prof --import tsx <this file>`. */
function runIngest(variant: Variant, daysBack: number): Promise<RunFigures> {
  const v = VARIANTS[variant];
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: { ...process.env, INGEST_CAPACITY_ROLE: 'ingest', BATCH_FRAMES: String(v.batchFrames), DAYS_BACK: String(daysBack) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let figures: RunFigures | undefined;
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (l.startsWith('INGEST_CAPACITY ')) figures = JSON.parse(l.slice('INGEST_CAPACITY '.length)) as RunFigures;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      figures ? resolve(figures) : reject(new Error(`ingest run (${variant}) exited with ${code} without figures`)),
    );
  });
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  const phases = ['capacity', ...RATES_PCT.map((p) => `at_${p}pct`)];
  const sums = Object.fromEntries(
    ORDER.map((v) => [v, Object.fromEntries(phases.map((p) => [p, { acked: 0, perCpu: 0, p50: 0, p99: 0 }]))]),
  ) as Record<Variant, Record<string, { acked: number; perCpu: number; p50: number; p99: number }>>;
  let daysBack = 120;
  for (let r = 1; r <= ROUNDS; r++) {
    for (const variant of ORDER) {
      // each run's fixes are dated apart from every other run's (a fix of the same second would be a duplicate)
      const f = await runIngest(variant, (daysBack -= 5));
      out.parts = f.parts;
      for (const [phase, figures] of Object.entries(f.phases)) {
        for (const [k, v] of Object.entries(figures)) out[`${variant}${r}_${phase}_${k}`] = v;
        const s = sums[variant][phase]!;
        s.acked += figures.acked_per_s;
        s.perCpu += figures.acked_per_cpu_second;
        s.p50 += figures.ack_p50_ms;
        s.p99 += figures.ack_p99_ms;
      }
    }
  }
  for (const variant of ORDER) {
    for (const phase of phases) {
      const s = sums[variant][phase]!;
      out[`${variant}_${phase}_acked_per_s_mean`] = Math.round(s.acked / ROUNDS);
      out[`${variant}_${phase}_acked_per_cpu_second_mean`] = Math.round(s.perCpu / ROUNDS);
      out[`${variant}_${phase}_ack_p50_ms_mean`] = round(s.p50 / ROUNDS);
      out[`${variant}_${phase}_ack_p99_ms_mean`] = round(s.p99 / ROUNDS);
    }
  }
  for (const phase of phases) {
    out[`batched_to_one_by_one_${phase}_acked_per_cpu_second`] = round(sums.batched[phase]!.perCpu / sums.one_by_one[phase]!.perCpu);
  }
  out.batched_to_one_by_one_capacity_acked_per_s = round(sums.batched.capacity!.acked / sums.one_by_one.capacity!.acked);
  out.setup =
    `ingest alone, a fresh process per run; ${DEVICES} GT06 trackers over TCP (their own process), at most ${WINDOW} frames unacknowledged each; ` +
    `${WARMUP_S} s warm-up, ${CAPACITY_S} s capacity (as fast as acks allow), then ${RATE_S} s at each of ${RATES_PCT.join('/')} % of that run's capacity; ` +
    `variants alternate ${ROUNDS} rounds: one_by_one = a connection's frames handed over one at a time (one publish, save, ack write each); ` +
    `batched = a connection's queued frames as one batch (as deployed)`;
  return out;
}
