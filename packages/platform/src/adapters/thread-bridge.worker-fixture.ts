import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { bridgedParts } from './thread-bridge';

/**
 * A worker thread using the bridge as an ingest thread does (thread-bridge.test.ts): it reads a
 * mirrored key once, then on `go` publishes `window` messages one by one, each after a read of the
 * mirrored key, then 10 more beyond the window, noting when each resolved; on `close` it closes its bus.
 */
const { port, window } = workerData as { port: MessagePort; window: number };
const far = bridgedParts(port, { bus: 'memory', cache: 'memory' }, { postedWindow: window, mirrored: ['m:'] });
const parent = parentPort!;
await far.cache.get('m:track');
parent.on('message', (m: string) => {
  void (async () => {
    if (m === 'close') {
      await far.bus.close();
      parent.postMessage({ closed: Date.now(), pending: far.bus.postedPending });
      return;
    }
    const acked: number[] = [];
    const reads: [string | null, number][] = [];
    for (let i = 0; i < window; i++) {
      reads.push([await far.cache.get('m:track'), Date.now()]);
      await far.bus.publish('fixes.v1', [{ key: String(i % 7), value: { i } }]);
      acked.push(Date.now());
    }
    parent.postMessage({ acked, reads, pending: far.bus.postedPending });
    const beyond: number[] = [];
    for (let i = 0; i < 10; i++) {
      await far.bus.publish('fixes.v1', [{ key: String(i % 7), value: { i: window + i } }]);
      beyond.push(Date.now());
    }
    parent.postMessage({ beyond });
  })();
});
parent.postMessage({ ready: true });
