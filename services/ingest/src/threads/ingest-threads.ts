import { availableParallelism } from 'node:os';
import { MessageChannel, Worker } from 'node:worker_threads';
import { addThreadMetrics, serveBridge, type Bus, type Cache, type Logger } from '@corridor/platform';
import type { ThreadData, ThreadReport } from './thread-data';

/**
 * Ingest across the cores of one process: worker threads, each a whole ingest instance (its own
 * event loop, decoders, intake and bus producer) listening on the same device ports with
 * SO_REUSEPORT, so the kernel spreads device connections (and Teltonika datagrams) over them. Each
 * instance is one more ingest as in a scaled-out deployment: the same consumer groups, device
 * claims and command routing as instances in separate pods.
 * - `own`: each thread opens its own connections to the real parts (a production pod).
 * - `bridged`: the threads use the bus and cache of this thread (serveBridge) and the analytics
 *   store at `clickhouseUrl` (the one-process stack, whose stores are embedded in this thread); they
 *   leave storing positions to this thread's ingest.
 * Their metrics are added to this thread's /metrics.
 */
export interface IngestThreadsOptions {
  count: number;
  /** The environment the threads parse their IngestConfig from. */
  env: Record<string, string | undefined>;
  logger: Logger;
  bridged?: {
    bus: Bus;
    cache: Cache;
    clickhouseUrl: string;
    clickhouseDatabase: string;
    /** Messages each thread posts without waiting for this thread's bus (default POSTED_WINDOW; 0: every publish waits for it). */
    postedWindow?: number;
    /** Whether the threads mirror their per-fix cache keys (default true; false: every read answered by this thread). */
    mirrored?: boolean;
  };
}

/**
 * How many messages an ingest thread may have posted to this thread's in-process bus and not yet
 * taken: at a saturated stack's 10,000 fixes/s about 0.4 s of this thread being busy elsewhere,
 * a few MiB of JSON. Beyond it a thread's publishes wait (its intake gate then holds positions).
 */
const POSTED_WINDOW = 4096;

export interface IngestThreads {
  /** The device ports each thread bound. */
  ports: Record<string, number>[];
  close(): Promise<void>;
}

/** Threads a process should run: INGEST_THREADS, else the cores this process may use (a container's CPU limit included). */
export function threadCount(configured: number | undefined): number {
  return configured ?? availableParallelism();
}

/** The worker entry, compiled in production (the package's `./thread` entry point), the source otherwise. */
const workerUrl = (): URL => new URL(import.meta.resolve('@corridor/ingest/thread'));

/** A source entry needs TypeScript loaded in the thread too (tsx, as `pnpm start` and the tests run). */
function execArgvFor(url: URL): string[] {
  const argv = process.execArgv;
  if (!url.pathname.endsWith('.ts') || argv.some((a) => a.includes('tsx'))) return argv;
  return [...argv, '--import', 'tsx'];
}

export async function startIngestThreads(opts: IngestThreadsOptions): Promise<IngestThreads> {
  const started: {
    worker: Worker;
    stopBridge?: () => Promise<void>;
    removeMetrics: () => void;
    call: (m: object, kind: string) => Promise<ThreadReport>;
  }[] = [];
  const ports: Record<string, number>[] = [];
  try {
    for (let index = 1; index <= opts.count; index++) {
      const env = Object.fromEntries(Object.entries(opts.env).filter((e): e is [string, string] => typeof e[1] === 'string'));
      let bridge: MessageChannel | undefined;
      const data: ThreadData = { index, env };
      if (opts.bridged) {
        bridge = new MessageChannel();
        data.bridged = {
          port: bridge.port2,
          clickhouseUrl: opts.bridged.clickhouseUrl,
          clickhouseDatabase: opts.bridged.clickhouseDatabase,
          // posting needs a bus of this process (a Kafka publish is confirmed by the broker)
          postedWindow: opts.bridged.bus.kind === 'memory' ? (opts.bridged.postedWindow ?? POSTED_WINDOW) : 0,
          mirrored: opts.bridged.cache.kind === 'memory' && opts.bridged.mirrored !== false,
          kinds: {
            bus: opts.bridged.bus.kind,
            cache: opts.bridged.cache.kind,
            ...(opts.bridged.bus.maxReadyLag !== undefined ? { maxReadyLag: opts.bridged.bus.maxReadyLag } : {}),
          },
        };
      }
      const stopBridge =
        bridge && opts.bridged ? serveBridge({ bus: opts.bridged.bus, cache: opts.bridged.cache }, bridge.port1) : undefined;
      const url = workerUrl();
      const worker = new Worker(url, {
        workerData: data,
        transferList: bridge ? [bridge.port2] : [],
        name: `ingest-${index}`,
        execArgv: execArgvFor(url),
      });
      const waiting = new Map<string, { resolve: (r: ThreadReport) => void; reject: (e: Error) => void }>();
      const failAll = (err: Error): void => {
        for (const w of waiting.values()) w.reject(err);
        waiting.clear();
      };
      worker.on('message', (r: ThreadReport) => {
        const w = waiting.get(r.kind);
        waiting.delete(r.kind);
        if (r.kind === 'failed') failAll(new Error(`ingest thread ${index}: ${r.error}`));
        else w?.resolve(r);
      });
      worker.on('error', (err) => {
        opts.logger.error({ err, thread: index }, 'ingest thread failed');
        failAll(err);
      });
      worker.on('exit', (code) => failAll(new Error(`ingest thread ${index} exited (${code})`)));
      const call = (m: object, kind: string): Promise<ThreadReport> =>
        new Promise((resolve, reject) => {
          waiting.set(kind, { resolve, reject });
          if (Object.keys(m).length) worker.postMessage(m);
        });
      const removeMetrics = addThreadMetrics(async () => {
        const r = await call({ kind: 'metrics' }, 'metrics');
        return r.kind === 'metrics' ? r.metrics : [];
      });
      started.push({ worker, removeMetrics, call, ...(stopBridge ? { stopBridge } : {}) });
      const ready = await call({}, 'listening');
      if (ready.kind === 'listening') ports.push(ready.ports);
    }
  } catch (err) {
    await closeAll(started);
    throw err;
  }
  opts.logger.info({ threads: opts.count, ports }, 'ingest threads listening');
  return { ports, close: () => closeAll(started) };
}

async function closeAll(
  started: {
    worker: Worker;
    stopBridge?: () => Promise<void>;
    removeMetrics: () => void;
    call: (m: object, kind: string) => Promise<ThreadReport>;
  }[],
): Promise<void> {
  await Promise.allSettled(
    started.map(async (t) => {
      t.removeMetrics();
      // the thread closes its ports and connections, flushes its archive, stops its consumers
      await Promise.race([t.call({ kind: 'close' }, 'closed'), new Promise((r) => setTimeout(r, 15_000).unref())]).catch(() => undefined);
      await t.stopBridge?.();
      await t.worker.terminate();
    }),
  );
}
