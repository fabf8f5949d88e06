/**
 * Traccar and Corridor side by side (issue 28), under one load generator (tools/bench/traccar/
 * load-fleet.ts: GT06 trackers over TCP in several processes), never both at once, in alternated
 * rounds: per round Traccar on H2 (as shipped), Corridor embedded (`pnpm start`), Traccar on
 * PostgreSQL, Corridor on PostgreSQL, Kafka and Redis, and Corridor's ingest service alone on them
 * (when DATABASE_URL, KAFKA_BROKERS and REDIS_URL are set: a database, topic namespace and key prefix
 * of the run's own; systems.ts startCorridorIngest: the issue's "ingest alone" per CPU-second).
 *
 * Per system run: start it alone, register the trackers, connect them (login acks timed), warm up,
 * then
 * - saturation: every tracker sends as fast as its acks allow (WINDOW unacknowledged each): acked
 *   fixes/s, and acked fixes per CPU-second of the server's processes (Traccar: java, H2 inside;
 *   Corridor: its one process with the ingest threads) and with its stores added (PostgreSQL
 *   backends of its database; Kafka and Redis, which are shared with whatever else runs, so that
 *   figure is a floor);
 * - offered load at 25/50/100/150 % of Traccar's saturation of the same round and parts: acked
 *   rate, ack p50/p99, and LOGINS_PER_PHASE new trackers logging in during the load (login ack
 *   p50/p99/max, how many were acked at all within LOGIN_TIMEOUT_MS and how many within 1 s);
 * - RSS of the server process after connecting and at the end.
 * Load average at every phase. Needs TRACCAR_SRC (a checkout of Traccar's source, built once into
 * TRACCAR_HOME, default /tmp/corridor-bench-traccar) and Maven Central for its build.
 * ROUNDS (default 2), TRACKERS (200), PROCESSES (4), BENCH_TRACCAR_SYSTEMS (a comma list of the
 * system names) and TRACCAR_SATURATION (below) tune it; CPU_PROFILE_DIR keeps a V8 CPU profile of each Corridor run.
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { load1m } from '../parts';
import { round } from '../stats';
import { fleetImei, LoadFleet, type FleetResult } from '../traccar/load-fleet';
import { phaseFigures, scrapeHistograms, type Snapshot } from '../traccar/scraped-histograms';
import {
  buildTraccar,
  cpuSecondsOf,
  rssOf,
  startCorridor,
  threadCpuOf,
  startCorridorIngest,
  startTraccar,
  type RunningSystem,
} from '../traccar/systems';

const ROUNDS = Number(process.env.ROUNDS ?? 2);
const TRACKERS = Number(process.env.TRACKERS ?? 200);
const PROCESSES = Number(process.env.PROCESSES ?? 4);
const WINDOW = 8;
const WARMUP_S = Number(process.env.WARMUP_S ?? 30);
const SATURATION_S = 15;
const RATE_S = 12;
const PCTS = [25, 50, 100, 150];
const LOGINS_PER_PHASE = 20;
const SPARES = 64; // per load process, logging in during phases
const BASE = Number(process.env.BENCH_BASE ?? 29000);
/**
 * TRACCAR_SATURATION=embedded:3756,real:1326: Traccar's saturated fixes/s of an earlier run, the
 * 100 % of the offered rates when a run leaves Traccar out (a Corridor system rerun alone, e.g. for
 * a profile at 50 %); without it and without Traccar in the round, a system's own saturation.
 */
const givenAnchor: Record<string, number> = Object.fromEntries(
  (process.env.TRACCAR_SATURATION ?? '')
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split(':'))
    .map(([k, v]) => [k!.trim(), Number(v)]),
);

/** corridor-embedded-confirmed: the embedded stack whose ingest threads wait for the main thread's answers (INGEST_THREAD_ACK=confirmed), only when named in BENCH_TRACCAR_SYSTEMS. */
/** corridor-real-lanes: the real-parts stack with four Kafka sends in flight per process (KAFKA_SENDS_IN_FLIGHT=4: producer lanes, off by default), only when named. */
type SystemName =
  | 'traccar-h2'
  | 'corridor-embedded'
  | 'corridor-embedded-confirmed'
  | 'traccar-pg'
  | 'corridor-real'
  | 'corridor-real-lanes'
  | 'corridor-ingest';
const REAL_PARTS: SystemName[] = ['traccar-pg', 'corridor-real', 'corridor-real-lanes', 'corridor-ingest'];
/** Systems run only when BENCH_TRACCAR_SYSTEMS names them: the A/B variants of an earlier behaviour. */
const ONLY_WHEN_NAMED: SystemName[] = ['corridor-embedded-confirmed', 'corridor-real-lanes'];
/** Stack settings of the A/B variants. */
const VARIANT_ENV: Partial<Record<SystemName, Record<string, string>>> = {
  'corridor-embedded-confirmed': { INGEST_THREAD_ACK: 'confirmed' },
  'corridor-real-lanes': { KAFKA_SENDS_IN_FLIGHT: '4' },
};

/** CPU seconds of each of the system's processes now (server and stores apart). */
interface Cpu {
  server: Map<number, number>;
  stores: Map<number, number>;
}

/** CPU seconds by kind of thread of the server's processes (systems.ts threadCpuOf). */
function threadCpus(sys: RunningSystem): Record<string, number> {
  const out: Record<string, number> = {};
  for (const pid of sys.serverPids()) for (const [k, v] of Object.entries(threadCpuOf(pid))) out[k] = (out[k] ?? 0) + v;
  return out;
}

function cpuNow(sys: RunningSystem): Cpu {
  const of = (pids: number[]): Map<number, number> => new Map(pids.map((p) => [p, cpuSecondsOf(p)]));
  return { server: of(sys.serverPids()), stores: of(sys.storePids()) };
}

/**
 * CPU seconds spent between two readings: per process, a process seen at both counts its
 * difference, one started since counts all of its time; one gone since is lost (its last
 * seconds unknown), so PostgreSQL backends that close within a phase make the figure a floor.
 * (Summing each reading before subtracting went negative when a process present at the start
 * had gone by the end.)
 */
function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, cpu] of after) spent += Math.max(0, cpu - (before.get(pid) ?? 0));
  return spent;
}

/**
 * Where Corridor's acks waited in a phase (issue 28): ingest's ack latency (frame read to ack
 * written), a connection batch's time in the durable path (the rest is the wait for the batch
 * before), its publish (both topics), and on Kafka the bus's wait for a send, the send's round trip
 * (acks=all) and its size.
 */
const WAIT_HISTOGRAMS = [
  'ingest_ack_latency_seconds',
  'ingest_batch_seconds',
  'ingest_publish_seconds',
  'bus_publish_wait_seconds',
  'bus_send_seconds',
  'bus_send_messages',
] as const;
const histograms = (sys: RunningSystem): Promise<Snapshot> =>
  sys.metricsUrl ? scrapeHistograms(sys.metricsUrl, WAIT_HISTOGRAMS) : Promise.resolve(new Map());

export default async function run(): Promise<Record<string, number | string>> {
  const home = process.env.TRACCAR_HOME ?? join(tmpdir(), 'corridor-bench-traccar');
  const real = Boolean(process.env.DATABASE_URL && process.env.KAFKA_BROKERS && process.env.REDIS_URL);
  const wanted = process.env.BENCH_TRACCAR_SYSTEMS?.split(',');
  const order: SystemName[] = (
    [
      'traccar-h2',
      'corridor-embedded',
      'corridor-embedded-confirmed',
      'traccar-pg',
      'corridor-real',
      'corridor-real-lanes',
      'corridor-ingest',
    ] as SystemName[]
  ).filter((s) => (real || !REAL_PARTS.includes(s)) && (wanted ? wanted.includes(s) : !ONLY_WHEN_NAMED.includes(s)));
  // Traccar is built only when it runs (a Corridor system alone takes its 100 % from TRACCAR_SATURATION)
  if (order.some((s) => s.startsWith('traccar'))) buildTraccar(home, (m) => process.stdout.write(`  ${m}\n`));
  const out: Record<string, number | string> = {
    setup: `${TRACKERS} GT06 trackers over TCP from ${PROCESSES} load processes, at most ${WINDOW} fixes unacknowledged each; ${WARMUP_S} s warm-up, ${SATURATION_S} s saturation, ${RATE_S} s at each of ${PCTS.join('/')} % of Traccar's saturation (same round and parts) with ${LOGINS_PER_PHASE} new trackers logging in during each; systems alone, alternated: ${order.join(', ')}; ${ROUNDS} rounds`,
    cpu_note:
      'server = the server process (Traccar: java with H2; Corridor: its process with its ingest threads; corridor-ingest: the ingest service process alone, a thread per core); with_stores adds PostgreSQL backends of its database, and for Corridor on real parts the Kafka broker and Redis listening on KAFKA_BROKERS and REDIS_URL (and for corridor-ingest the analytics store process: chDB behind the ClickHouse HTTP front), which are shared with other work on this machine: their CPU counts that work too, so acked_per_cpu_s_with_stores is a floor for Corridor on real parts',
  };
  const imeis = [
    ...Array.from({ length: TRACKERS }, (_, i) => fleetImei(i)),
    ...Array.from({ length: PROCESSES * SPARES }, (_, i) => fleetImei(100_000 + i)),
  ];
  const traccarSaturation: Record<string, number> = {};
  for (let r = 1; r <= ROUNDS; r++) {
    for (const name of order) {
      const key = `r${r}.${name}`;
      process.stdout.write(`  ${key}: starting (load ${load1m()})\n`);
      const sys = name.startsWith('traccar')
        ? await startTraccar({
            home,
            kind: name === 'traccar-pg' ? 'pg' : 'h2',
            databaseUrl: process.env.DATABASE_URL,
            ports: { gt06: BASE + 623, teltonika: BASE + 627, web: BASE + 990 },
          })
        : name === 'corridor-ingest'
          ? await startCorridorIngest({ base: BASE })
          : await startCorridor({
              kind: name.startsWith('corridor-real') ? 'real' : 'embedded',
              ...(VARIANT_ENV[name] ? { env: VARIANT_ENV[name] } : {}),
              base: BASE,
              ...(process.env.CPU_PROFILE_DIR ? { cpuProfileDir: join(process.env.CPU_PROFILE_DIR, key) } : {}),
            });
      let fleet: LoadFleet | undefined;
      try {
        await sys.registerDevices(imeis);
        // each run's fixes are dated apart from every other run's (a fix of the same second would be a duplicate)
        fleet = new LoadFleet({
          port: sys.gt06Port,
          first: 0,
          count: TRACKERS,
          processes: PROCESSES,
          t0: Date.UTC(2026, 0, 1) - (r * 10 + order.indexOf(name)) * 30 * 86_400_000,
          spareFrom: 100_000,
          spares: SPARES,
        });
        const ready = await fleet.ready();
        out[`${key}.connected`] = ready.connected;
        out[`${key}.connect_login_max_ms`] = ready.loginMaxMs;
        out[`${key}.rss_mib_connected`] = Math.round(sys.serverPids().reduce((a, p) => a + rssOf(p), 0) / 2 ** 20);
        await fleet.run({ cmd: 'closed', seconds: WARMUP_S, window: WINDOW });
        const phase = async (label: string, command: Parameters<LoadFleet['run']>[0]): Promise<FleetResult> => {
          out[`${key}.${label}.load_start`] = load1m();
          const h0 = await histograms(sys);
          const c0 = cpuNow(sys);
          const t0 = threadCpus(sys);
          const mono0 = process.hrtime.bigint() / 1000n;
          const res = await fleet!.run(command);
          const mono1 = process.hrtime.bigint() / 1000n;
          const c1 = cpuNow(sys);
          const t1 = threadCpus(sys);
          const waits = phaseFigures(h0, await histograms(sys));
          for (const [k, v] of Object.entries(waits)) out[`${key}.${label}.${k}`] = v;
          // the phase on the monotonic clock V8's CPU profiles use (profile-summary.ts --window)
          out[`${key}.${label}.monotonic_us`] = `${mono0}-${mono1}`;
          const server = cpuSpent(c0.server, c1.server);
          const stores = cpuSpent(c0.stores, c1.stores);
          out[`${key}.${label}.load_end`] = load1m();
          out[`${key}.${label}.acked_per_s`] = Math.round(res.acked / res.seconds);
          out[`${key}.${label}.ack_p50_ms`] = res.p50Ms;
          out[`${key}.${label}.ack_p99_ms`] = res.p99Ms;
          out[`${key}.${label}.cpu_s_server`] = round(server);
          out[`${key}.${label}.cpu_s_stores`] = round(stores);
          out[`${key}.${label}.acked_per_cpu_s_server`] = Math.round(res.acked / Math.max(0.01, server));
          out[`${key}.${label}.acked_per_cpu_s_with_stores`] = Math.round(res.acked / Math.max(0.01, server + stores));
          // per kind of thread: CPU µs per acked fix (Corridor's main thread, ingest threads, V8's helpers, ...)
          for (const [kind, cpu] of Object.entries(t1))
            out[`${key}.${label}.cpu_us_per_acked.${kind}`] = round((1e6 * (cpu - (t0[kind] ?? 0))) / Math.max(1, res.acked));
          if (command.cmd === 'rate') {
            out[`${key}.${label}.backlog_at_end`] = res.backlog;
            out[`${key}.${label}.logins_acked`] = `${res.logins.acked}/${res.logins.tried}`;
            out[`${key}.${label}.logins_within_1s`] = `${res.logins.within1s}/${res.logins.tried}`;
            out[`${key}.${label}.login_p50_ms`] = res.logins.p50Ms;
            out[`${key}.${label}.login_p99_ms`] = res.logins.p99Ms;
            out[`${key}.${label}.login_max_ms`] = res.logins.maxMs;
          }
          process.stdout.write(
            `  ${key}.${label}: ${Math.round(res.acked / res.seconds)} acked/s, p99 ${res.p99Ms} ms, ${Math.round(res.acked / Math.max(0.01, server))} per server CPU-s (load ${load1m()})${
              sys.metricsUrl
                ? `; p50/p99 ms: ingest ack ${waits['ingest_ack_latency_seconds.p50_ms']}/${waits['ingest_ack_latency_seconds.p99_ms']}, batch ${waits['ingest_batch_seconds.p50_ms']}/${waits['ingest_batch_seconds.p99_ms']}, publish ${waits['ingest_publish_seconds.p50_ms']}/${waits['ingest_publish_seconds.p99_ms']}, bus wait ${waits['bus_publish_wait_seconds.p50_ms']}/${waits['bus_publish_wait_seconds.p99_ms']}, send ${waits['bus_send_seconds.p50_ms']}/${waits['bus_send_seconds.p99_ms']}, messages per send ${waits['bus_send_messages.p50']}/${waits['bus_send_messages.p99']}`
                : ''
            }\n`,
          );
          return res;
        };
        const sat = await phase('saturation', { cmd: 'closed', seconds: SATURATION_S, window: WINDOW });
        const parts = name.endsWith('h2') || name.includes('embedded') ? 'embedded' : 'real';
        if (name.startsWith('traccar')) traccarSaturation[`${r}.${parts}`] = sat.acked / sat.seconds;
        const anchor = traccarSaturation[`${r}.${parts}`] ?? givenAnchor[parts] ?? sat.acked / sat.seconds;
        out[`${key}.anchor_per_s`] = Math.round(anchor);
        for (const pct of PCTS) {
          const perSecond = Math.round((anchor * pct) / 100);
          out[`${key}.at_${pct}pct.offered_per_s`] = perSecond;
          await phase(`at_${pct}pct`, { cmd: 'rate', perSecond, seconds: RATE_S, window: WINDOW, logins: LOGINS_PER_PHASE });
        }
        out[`${key}.rss_mib_end`] = Math.round(sys.serverPids().reduce((a, p) => a + rssOf(p), 0) / 2 ** 20);
      } finally {
        await fleet?.stop().catch(() => undefined);
        await sys.stop();
      }
    }
  }
  // ratios within each round: Corridor over Traccar on the same parts
  for (let r = 1; r <= ROUNDS; r++) {
    for (const [c, t] of [
      ['corridor-embedded', 'traccar-h2'],
      ['corridor-embedded', 'corridor-embedded-confirmed'],
      ['corridor-real', 'traccar-pg'],
      ['corridor-real-lanes', 'corridor-real'],
      ['corridor-ingest', 'traccar-pg'],
    ] as const) {
      const a = (k: string): number => Number(out[`r${r}.${c}.${k}`]);
      const b = (k: string): number => Number(out[`r${r}.${t}.${k}`]);
      if (!Number.isFinite(a('saturation.acked_per_s')) || !Number.isFinite(b('saturation.acked_per_s'))) continue;
      out[`r${r}.${c}_over_${t}.saturation_acked_per_s`] = round(a('saturation.acked_per_s') / b('saturation.acked_per_s'));
      out[`r${r}.${c}_over_${t}.acked_per_cpu_s_server`] = round(
        a('saturation.acked_per_cpu_s_server') / b('saturation.acked_per_cpu_s_server'),
      );
      out[`r${r}.${c}_over_${t}.acked_per_cpu_s_with_stores`] = round(
        a('saturation.acked_per_cpu_s_with_stores') / b('saturation.acked_per_cpu_s_with_stores'),
      );
    }
  }
  return out;
}
