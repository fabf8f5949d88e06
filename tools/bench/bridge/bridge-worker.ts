import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { bridgedParts, type BridgeSending } from '@corridor/platform';

/**
 * The ingest thread's use of the bridge, without the sockets (suites/thread-bridge.ts): CONNECTIONS
 * device batches at a time, each a cache read of the device's track state, a publish of its
 * fixes and a cache write not waited for (services/ingest/src/positions/track-store.ts and intake).
 */
const { port, sending, connections, batches, perBatch, message } = workerData as {
  port: MessagePort;
  sending: BridgeSending;
  connections: number;
  batches: number;
  perBatch: number;
  message: string;
};
const { bus, cache } = bridgedParts(port, { bus: 'memory', cache: 'memory' }, sending);
const value = JSON.parse(message) as Record<string, unknown>;

async function connection(c: number): Promise<void> {
  for (let b = 0; b < batches; b++) {
    await cache.mget([`ingest:track:${c}`, `accumulators:set:${c}`]);
    await bus.publish(
      'positions.bench',
      Array.from({ length: perBatch }, (_, i) => ({ key: String(c), value: { ...value, id: b * perBatch + i } })),
    );
    void cache.set(`ingest:track:${c}`, JSON.stringify({ v: 1, b, at: Date.now() }), 3600);
  }
}

const wall = performance.now();
const cpu = process.threadCpuUsage();
await Promise.all(Array.from({ length: connections }, (_, c) => connection(c)));
await cache.ping();
const used = process.threadCpuUsage(cpu);
parentPort!.postMessage({ cpuUs: used.user + used.system, wallMs: performance.now() - wall });
