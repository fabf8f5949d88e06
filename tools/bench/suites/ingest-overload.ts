/**
 * The whole stack under load, on the parts the environment names (real Kafka, PostgreSQL, Redis
 * when set; chDB unless CLICKHOUSE_URL): ingest, journey, geofence, ops-api and the gateway in this
 * process, as `pnpm start` runs them, fed by GT06 trackers over TCP from a child process
 * (tools/bench/traccar/load-fleet.ts: each keeps at most WINDOW frames unacknowledged, what it cannot send
 * yet waits in its backlog).
 *
 * 1. Capacity: every tracker sends as fast as its acks allow for CAPACITY_S seconds; the acked rate
 *    is the capacity C. Then, until every consumer caught up (position writer, evaluators, live
 *    feed), the CPU time of this process is counted too: acked fixes per CPU-second of the stack.
 * 2. Offered load at 50 %, 100 % and 150 % of C for RATE_S seconds each: acked rate, ack latency
 *    seen by the trackers (frame written → ack read: includes the time a frame waits in the
 *    sockets while ingest does not read) and by ingest (frame read → ack written, from
 *    ingest_ack_latency_seconds), the most fixes pending in ingest, the trackers' backlog at the end.
 * 3. Streaming trackers (STREAM_WINDOW frames unacknowledged each) at 150 %, with ingest's intake
 *    gate and then without it (ingest rebuilt with its limit out of reach): what the gate bounds.
 * The load average is recorded at the start and end of each phase, with the event loop's delay
 * (perf_hooks' monitorEventLoopDelay, 10 ms resolution) during it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { build as buildGateway, GatewayConfig } from '@corridor/gateway';
import { build as buildGeofence } from '@corridor/geofence';
import { build as buildIngest } from '@corridor/ingest';
import { build as buildJourney } from '@corridor/journey';
import { build as buildOpsApi } from '@corridor/ops-api';
import { parseConfig, registry, type App } from '@corridor/platform';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { caughtUp } from '../caught-up';
import { fleetImei, LoadFleet, type FleetResult } from '../traccar/load-fleet';
import { benchAdapters, load1m, partsOf, primaryBenchKind } from '../parts';
import { bucketQuantile, round } from '../stats';

const DEVICES = 400;
const WINDOW = 4;
const WARMUP_S = 8;
const CAPACITY_S = 15;
const RATE_S = 15;
const STREAM_WINDOW = 64;

/** Cumulative bucket counts of ingest_ack_latency_seconds for GT06. */
async function ackBuckets(): Promise<Map<number, number>> {
  const metric = await registry.getSingleMetric('ingest_ack_latency_seconds')?.get();
  const out = new Map<number, number>();
  for (const v of metric?.values ?? []) {
    if (v.labels.protocol !== 'gt06' || (v as { metricName?: string }).metricName !== 'ingest_ack_latency_seconds_bucket') continue;
    out.set(v.labels.le === '+Inf' ? Infinity : Number(v.labels.le), v.value);
  }
  return out;
}

type Ingest = Awaited<ReturnType<typeof buildIngest>>;

export default async function run(): Promise<Record<string, number | string>> {
  const kind = await primaryBenchKind();
  const adapters = await benchAdapters(kind);
  const common = { ...adapters, identitySecret: TEST_IDENTITY_SECRET };
  const ops = await buildOpsApi({ ...common, logger: adapters.logger });
  let ingest: Ingest = await buildIngest({ ...common, logger: adapters.logger });
  const journey = await buildJourney({ ...common, logger: adapters.logger });
  const geofence = await buildGeofence({ ...common, logger: adapters.logger });
  const gateway = await buildGateway({
    ...adapters,
    logger: adapters.logger,
    config: parseConfig(GatewayConfig, { INTERNAL_TOKEN_SECRET: TEST_IDENTITY_SECRET, LOG_LEVEL: 'error' }),
  });
  const others = [ops, journey, geofence, gateway];
  const apps = (): App[] => [ops.app, ingest.app, journey.app, geofence.app, gateway.app];
  const out: Record<string, number | string> = {};
  let devices: LoadFleet | undefined;
  const settle = async (): Promise<void> => {
    while (!(await caughtUp(apps()))) await new Promise((r) => setTimeout(r, 200));
  };
  /** ingest's device port with the load trackers registered and connected (a new child process). */
  const connectDevices = async (t0: number): Promise<number> => {
    for (let i = 0; i < DEVICES; i++)
      ingest.registry.apply({
        id: 50_001 + i,
        uniqueId: fleetImei(i),
        name: `load ${i}`,
        disabled: false,
        companyId: null,
        groupId: null,
        status: 'online',
        deleted: false,
      });
    const port = await ingest.ports.tcp.gt06.listen(0, '127.0.0.1');
    devices = new LoadFleet({ port, first: 0, count: DEVICES, processes: 1, t0, spareFrom: DEVICES, spares: 0 });
    return (await devices.ready()).connected;
  };
  try {
    for (const s of [...others, ingest]) await s.start();
    const connected = await connectDevices(Date.now() - 60 * 86_400_000);
    out.parts = partsOf(adapters);
    out.setup = `${connected} GT06 trackers over TCP (child process), at most ${WINDOW} frames unacknowledged each (${STREAM_WINDOW} in the streaming runs); ingest, journey, geofence, ops-api and gateway in one process`;

    const phase = async (name: string, go: () => Promise<FleetResult>): Promise<FleetResult> => {
      out[`${name}_load_start`] = load1m();
      const before = await ackBuckets();
      let maxPending = 0;
      const sampler = setInterval(() => (maxPending = Math.max(maxPending, ingest.ports.gate.pendingFixes)), 50);
      const loopDelay = monitorEventLoopDelay({ resolution: 10 });
      loopDelay.enable();
      const r = await go();
      loopDelay.disable();
      clearInterval(sampler);
      const after = await ackBuckets();
      out[`${name}_load_end`] = load1m();
      out[`${name}_acked_per_s`] = Math.round(r.acked / r.seconds);
      out[`${name}_ack_p50_ms`] = r.p50Ms;
      out[`${name}_ack_p99_ms`] = r.p99Ms;
      out[`${name}_ingest_ack_p50_ms`] = round(bucketQuantile(before, after, 0.5));
      out[`${name}_ingest_ack_p99_ms`] = round(bucketQuantile(before, after, 0.99));
      // how long the process (all five services) kept its event loop from turning: a frame waits that long before ingest reads it
      out[`${name}_event_loop_delay_p50_ms`] = round(loopDelay.percentile(50) / 1e6);
      out[`${name}_event_loop_delay_p99_ms`] = round(loopDelay.percentile(99) / 1e6);
      out[`${name}_pending_max`] = maxPending;
      out[`${name}_pending_limit_at_end`] = ingest.ports.gate.limit;
      out[`${name}_backlog_at_end`] = r.backlog;
      return r;
    };

    // warm-up (JIT, connections, consumer groups joined): a modest steady load, not recorded
    await devices!.run({ cmd: 'rate', perSecond: 2 * DEVICES, seconds: WARMUP_S, window: WINDOW });
    await settle();

    // 1. capacity, and CPU per acked fix until every consumer caught up
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const cap = await phase('capacity', () => devices!.run({ cmd: 'closed', seconds: CAPACITY_S, window: WINDOW }));
    const drainStart = performance.now();
    await settle();
    const cpu = process.cpuUsage(cpu0);
    const cpuSeconds = (cpu.user + cpu.system) / 1e6;
    const capacity = cap.acked / cap.seconds;
    out.capacity_fixes_per_s = Math.round(capacity);
    out.capacity_drain_after_load_s = round((performance.now() - drainStart) / 1000);
    out.capacity_cpu_seconds = round(cpuSeconds);
    out.capacity_cpu_share_of_wall = round(cpuSeconds / ((performance.now() - wall0) / 1000));
    out.acked_fixes_per_cpu_second = Math.round(cap.acked / cpuSeconds);

    // 2. offered load at 50 %, 100 %, 150 % of capacity
    const rate = (pct: number): number => Math.round((capacity * pct) / 100);
    for (const pct of [50, 100, 150]) {
      await settle();
      out[`at_${pct}pct_offered_per_s`] = rate(pct);
      await phase(`at_${pct}pct`, () => devices!.run({ cmd: 'rate', perSecond: rate(pct), seconds: RATE_S, window: WINDOW }));
    }

    // 3. trackers streaming (many frames unacknowledged) at 150 %: with the intake gate, then with
    //    ingest rebuilt without it (its limit out of reach), as before the gate existed
    await settle();
    await phase('streaming_150pct_gated', () =>
      devices!.run({ cmd: 'rate', perSecond: rate(150), seconds: RATE_S, window: STREAM_WINDOW }),
    );
    await devices!.stop();
    devices = undefined;
    await settle();
    await ingest.close();
    ingest = await buildIngest({
      ...common,
      logger: adapters.logger,
      settings: { MAX_PENDING_FIXES: 10_000_000, ACK_DELAY_TARGET_MS: 3_600_000 },
    });
    await ingest.start();
    await connectDevices(Date.now() - 30 * 86_400_000);
    await devices!.run({ cmd: 'rate', perSecond: 2 * DEVICES, seconds: 2, window: WINDOW });
    await settle();
    await phase('streaming_150pct_ungated', () =>
      devices!.run({ cmd: 'rate', perSecond: rate(150), seconds: RATE_S, window: STREAM_WINDOW }),
    );
    out.note =
      'tracker ack latency: frame written -> ack read (includes the time a frame waits in the sockets while ingest does not read); ' +
      'ingest ack latency: frame read -> ack written (ingest_ack_latency_seconds, interpolated in its buckets); ' +
      'pending: fixes read and not yet confirmed by the bus (the intake gate), sampled every 50 ms';
  } finally {
    await devices?.stop();
    for (const s of [gateway, ingest, journey, geofence, ops]) await s.close().catch(() => undefined);
    await adapters.close();
  }
  return out;
}
