import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { bridgedParts, type BridgeOptions } from '@corridor/platform';

/**
 * The ingest thread's use of the bridge, without the sockets (suites/thread-bridge.ts): CONNECTIONS
 * device batches at a time, each a cache read of the device's track state, a publish of its
 * fixes and a cache write not waited for (services/ingest/src/positions/track-store.ts and intake).
 * With `intervalMs`, each connection starts a batch every intervalMs (a tracker's pace) and the
 * time from a batch's start to its publish resolving (when ingest acks) is noted (a connection's
 * first batch apart).
 */
const { port, options, connections, batches, perBatch, message, intervalMs } = workerData as {
  port: MessagePort;
  options: BridgeOptions;
  connections: number;
  batches: number;
  perBatch: number;
  message: string;
  intervalMs: number;
};
const { bus, cache } = bridgedParts(port, { bus: 'memory', cache: 'memory' }, options);
const value = JSON.parse(message) as Record<string, unknown>;
const acks: number[] = [];
/** Each connection's first batch apart: its mirrored keys are read from the main thread once. */
const firsts: number[] = [];

async function connection(c: number): Promise<void> {
  // spread the connections' first batches over one interval
  if (intervalMs) await new Promise((r) => setTimeout(r, (intervalMs * c) / connections));
  for (let b = 0; b < batches; b++) {
    const start = performance.now();
    await cache.mget([`ingest:track:${c}`, `device:accumulators-set:${c}`]);
    await bus.publish(
      'positions.bench',
      Array.from({ length: perBatch }, (_, i) => ({ key: String(c), value: { ...value, id: b * perBatch + i } })),
    );
    const acked = performance.now();
    (b === 0 ? firsts : acks).push(acked - start);
    void cache.set(`ingest:track:${c}`, JSON.stringify({ v: 1, b, at: Date.now() }), 3600);
    if (intervalMs) await new Promise((r) => setTimeout(r, Math.max(0, start + intervalMs - performance.now())));
  }
}

const wall = performance.now();
const cpu = process.threadCpuUsage();
await Promise.all(Array.from({ length: connections }, (_, c) => connection(c)));
await bus.close(); // every posted message taken
await cache.ping();
const used = process.threadCpuUsage(cpu);
parentPort!.postMessage({ cpuUs: used.user + used.system, wallMs: performance.now() - wall, acks, firsts });
