/**
 * The thread bridge (packages/platform thread-bridge.ts: the embedded stack's ingest threads reach
 * the bus and cache of the main thread through it) sending what one turn of the event loop issues
 * as one postMessage (`turn`, now) against one postMessage per call and per answer (`each`, the
 * bridge of before), alternated in one run. A worker thread (bridge/bridge-worker.ts) runs
 * CONNECTIONS device batches at a time as an ingest thread does (a cache read, a publish of
 * PER_BATCH positions, a cache write), BATCHES each; the main thread serves the embedded bus and
 * cache. Figures: CPU µs per position of the main thread (where every consumer also runs) and of
 * the worker (process.threadCpuUsage), and the wall time, medians of ROUNDS rounds per way.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { MemoryBus, MemoryCache, serveBridge, type BridgeSending } from '@corridor/platform';
import { load1m } from '../parts';
import { round } from '../stats';

const CONNECTIONS = Number(process.env.BRIDGE_CONNECTIONS ?? 200);
const BATCHES = Number(process.env.BRIDGE_BATCHES ?? 50);
const PER_BATCH = Number(process.env.BRIDGE_PER_BATCH ?? 2);
const ROUNDS = Number(process.env.BRIDGE_ROUNDS ?? 6);
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** A position as ingest publishes it (GT06 fix, computed attributes). */
const MESSAGE =
  '{"id":2000000000001,"deviceId":1,"uniqueId":"358100000000000","protocol":"gt06","fixTime":"2026-01-05T06:00:00.000Z","serverTime":"2026-01-05T06:00:00.850Z","valid":true,"latitude":-1.3,"longitude":36.8,"speed":32.4,"course":90,"altitude":1600,"satellites":9,"ignition":true,"crcValid":true,"rawFrameId":"fabc123a1b2","attributes":{"sat":9,"ignition":true,"motion":true,"distance":16.7,"totalDistance":1234567.8,"hours":3600000,"mcc":639,"mnc":2,"lac":8000,"cid":41394}}';

async function once(sending: BridgeSending): Promise<{ mainUs: number; workerUs: number; wallMs: number }> {
  const bus = new MemoryBus(12);
  await bus.ensureTopics([{ name: 'positions.bench', partitions: 12 }]);
  const cache = new MemoryCache();
  const { port1, port2 } = new MessageChannel();
  const stop = serveBridge({ bus, cache }, port1, sending);
  const url = new URL('../bridge/bridge-worker.ts', import.meta.url);
  const cpu = process.threadCpuUsage();
  const worker = new Worker(url, {
    workerData: { port: port2, sending, connections: CONNECTIONS, batches: BATCHES, perBatch: PER_BATCH, message: MESSAGE },
    transferList: [port2],
    execArgv: [...process.execArgv, '--import', 'tsx'],
  });
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
  out.load_end = load1m();
  out.setup = `${CONNECTIONS} device batches at a time, ${BATCHES} each of ${PER_BATCH} positions (a cache read, a publish, a cache write per batch); ${ROUNDS} rounds per way, alternated, after a warm-up; medians`;
  return out;
}
