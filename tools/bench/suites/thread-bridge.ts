/**
 * The thread bridge (packages/platform thread-bridge.ts: the embedded stack's ingest threads reach
 * the bus and cache of the main thread through it) sending what one turn of the event loop issues
 * as one postMessage (`turn`, now) against one postMessage per call and per answer (`each`, the
 * bridge of before), alternated in one run. A worker thread (bridge/bridge-worker.ts) runs
 * CONNECTIONS device batches at a time as an ingest thread does (a cache read, a publish of
 * PER_BATCH positions, a cache write), BATCHES each; the main thread serves the embedded bus and
 * cache. Figures: CPU µs per position of the main thread (where every consumer also runs) and of
 * the worker (process.threadCpuUsage), and the wall time, medians of ROUNDS rounds per way.
 *
 * Then the ack while the main thread is busy (issue 28: the embedded stack's ack p99): the main
 * thread spins BUSY_MS at a time (a consumer's batches) and serves the bridge between spins; the
 * worker's CONNECTIONS start a batch every PACE_MS each (BUSY_BATCHES of them) and note the time
 * from a batch's start to its publish resolving (when ingest acks). `confirmed`: the bridge of
 * before (every read and publish answered by the main thread); `posted`: publishes posted within
 * a window of 4,096 messages and the track-state keys mirrored in the worker (thread-bridge.ts
 * BridgeOptions, as ingest threads use it). p50/p99/max of the ack, medians of ROUNDS rounds per way.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { MemoryBus, MemoryCache, serveBridge, type BridgeOptions, type BridgeSending } from '@corridor/platform';
import { load1m } from '../parts';
import { quantile, round } from '../stats';

const CONNECTIONS = Number(process.env.BRIDGE_CONNECTIONS ?? 200);
const BATCHES = Number(process.env.BRIDGE_BATCHES ?? 50);
const PER_BATCH = Number(process.env.BRIDGE_PER_BATCH ?? 2);
const ROUNDS = Number(process.env.BRIDGE_ROUNDS ?? 6);
const BUSY_MS = Number(process.env.BRIDGE_BUSY_MS ?? 100);
const PACE_MS = Number(process.env.BRIDGE_PACE_MS ?? 100);
const BUSY_BATCHES = Number(process.env.BRIDGE_BUSY_BATCHES ?? 40);
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** A position as ingest publishes it (GT06 fix, computed attributes). */
const MESSAGE =
  '{"id":2000000000001,"deviceId":1,"uniqueId":"358100000000000","protocol":"gt06","fixTime":"2026-01-05T06:00:00.000Z","serverTime":"2026-01-05T06:00:00.850Z","valid":true,"latitude":-1.3,"longitude":36.8,"speed":32.4,"course":90,"altitude":1600,"satellites":9,"ignition":true,"crcValid":true,"rawFrameId":"fabc123a1b2","attributes":{"sat":9,"ignition":true,"motion":true,"distance":16.7,"totalDistance":1234567.8,"hours":3600000,"mcc":639,"mnc":2,"lac":8000,"cid":41394}}';

function startWorker(port: MessagePort, options: BridgeOptions, batches: number, intervalMs: number): Worker {
  return new Worker(new URL('../bridge/bridge-worker.ts', import.meta.url), {
    workerData: { port, options, connections: CONNECTIONS, batches, perBatch: PER_BATCH, message: MESSAGE, intervalMs },
    transferList: [port],
    execArgv: [...process.execArgv, '--import', 'tsx'],
  });
}

async function once(sending: BridgeSending): Promise<{ mainUs: number; workerUs: number; wallMs: number }> {
  const bus = new MemoryBus(12);
  await bus.ensureTopics([{ name: 'positions.bench', partitions: 12 }]);
  const cache = new MemoryCache();
  const { port1, port2 } = new MessageChannel();
  const stop = serveBridge({ bus, cache }, port1, sending);
  const cpu = process.threadCpuUsage();
  const worker = startWorker(port2, { sending }, BATCHES, 0);
  const r = await new Promise<{ cpuUs: number; wallMs: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const main = process.threadCpuUsage(cpu);
  await worker.terminate();
  await stop();
  await bus.close();
  const positions = CONNECTIONS * BATCHES * PER_BATCH;
  if (bus.size('positions.bench') !== positions) throw new Error(`published ${bus.size('positions.bench')} of ${positions}`);
  return { mainUs: (main.user + main.system) / positions, workerUs: r.cpuUs / positions, wallMs: r.wallMs };
}

type AckWay = 'confirmed' | 'posted';

const spin = (ms: number): void => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

/** One round of acks under a busy main thread: the acks' p50/p99/max (ms). */
async function busyOnce(way: AckWay): Promise<{ p50: number; p99: number; max: number; firstP50: number }> {
  const bus = new MemoryBus(12);
  await bus.ensureTopics([{ name: 'positions.bench', partitions: 12 }]);
  const { port1, port2 } = new MessageChannel();
  const stop = serveBridge({ bus, cache: new MemoryCache() }, port1);
  const options: BridgeOptions = way === 'posted' ? { postedWindow: 4096, mirrored: ['ingest:track:', 'device:accumulators-set:'] } : {};
  const worker = startWorker(port2, options, BUSY_BATCHES, PACE_MS);
  let done = false;
  const result = new Promise<{ acks: number[]; firsts: number[] }>((resolve, reject) => {
    worker.once('message', (m: { acks: number[]; firsts: number[] }) => {
      done = true;
      resolve(m);
    });
    worker.once('error', reject);
  });
  // the main thread's consumers: busy BUSY_MS at a time, the bridge served between
  while (!done) {
    spin(BUSY_MS);
    await new Promise((r) => setImmediate(r));
  }
  const { acks, firsts } = await result;
  await worker.terminate();
  await stop();
  await bus.close();
  const positions = CONNECTIONS * BUSY_BATCHES * PER_BATCH;
  if (bus.size('positions.bench') !== positions) throw new Error(`published ${bus.size('positions.bench')} of ${positions}`);
  const sorted = acks.sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.at(-1) ?? NaN,
    firstP50: quantile(
      firsts.sort((a, b) => a - b),
      0.5,
    ),
  };
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = { load_start: load1m() };
  const ways: Record<BridgeSending, { mainUs: number[]; workerUs: number[]; wallMs: number[] }> = {
    each: { mainUs: [], workerUs: [], wallMs: [] },
    turn: { mainUs: [], workerUs: [], wallMs: [] },
  };
  await once('turn'); // warm-up: module loading and the JIT
  for (let r = 0; r < ROUNDS; r++) {
    for (const way of (r % 2 ? ['turn', 'each'] : ['each', 'turn']) as BridgeSending[]) {
      const f = await once(way);
      ways[way].mainUs.push(f.mainUs);
      ways[way].workerUs.push(f.workerUs);
      ways[way].wallMs.push(f.wallMs);
    }
  }
  for (const [way, f] of Object.entries(ways)) {
    out[`${way}.main_thread_cpu_us_per_position`] = round(median(f.mainUs));
    out[`${way}.worker_cpu_us_per_position`] = round(median(f.workerUs));
    out[`${way}.wall_ms`] = Math.round(median(f.wallMs));
  }
  out['turn_over_each.main_thread_cpu'] = round(median(ways.turn.mainUs) / median(ways.each.mainUs));
  out['turn_over_each.worker_cpu'] = round(median(ways.turn.workerUs) / median(ways.each.workerUs));
  out['turn_over_each.wall'] = round(median(ways.turn.wallMs) / median(ways.each.wallMs));
  const acks: Record<AckWay, { p50: number[]; p99: number[]; max: number[]; firstP50: number[] }> = {
    confirmed: { p50: [], p99: [], max: [], firstP50: [] },
    posted: { p50: [], p99: [], max: [], firstP50: [] },
  };
  for (let r = 0; r < ROUNDS; r++) {
    for (const way of (r % 2 ? ['posted', 'confirmed'] : ['confirmed', 'posted']) as AckWay[]) {
      const f = await busyOnce(way);
      for (const k of ['p50', 'p99', 'max', 'firstP50'] as const) acks[way][k].push(f[k]);
    }
  }
  for (const [way, f] of Object.entries(acks)) {
    out[`busy_main.${way}.ack_p50_ms`] = round(median(f.p50));
    out[`busy_main.${way}.ack_p99_ms`] = round(median(f.p99));
    out[`busy_main.${way}.ack_max_ms`] = round(median(f.max));
    out[`busy_main.${way}.first_batch_ack_p50_ms`] = round(median(f.firstP50));
  }
  out['busy_main.posted_over_confirmed.ack_p99'] = Math.round((median(acks.posted.p99) / median(acks.confirmed.p99)) * 10_000) / 10_000;
  out.load_end = load1m();
  out.setup = `${CONNECTIONS} device batches at a time, ${BATCHES} each of ${PER_BATCH} positions (a cache read, a publish, a cache write per batch); ${ROUNDS} rounds per way, alternated, after a warm-up; medians. busy_main: the main thread spinning ${BUSY_MS} ms at a time, ${CONNECTIONS} connections each starting a batch of ${PER_BATCH} every ${PACE_MS} ms, ${BUSY_BATCHES} batches each (the ack figures leave out each connection's first batch, whose mirrored keys are read from the main thread: first_batch_ack)`;
  return out;
}
