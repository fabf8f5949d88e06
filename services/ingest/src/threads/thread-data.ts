import type { MessagePort } from 'node:worker_threads';
import type { Bus, Cache, MetricsJson } from '@corridor/platform';

/** What an ingest worker thread is started with (ingest-threads.ts → thread.ts). */
export interface ThreadData {
  index: number;
  env: Record<string, string>;
  /** Absent: the thread opens its own connections to the real parts the environment names. */
  bridged?: {
    port: MessagePort;
    kinds: { bus: Bus['kind']; cache: Cache['kind']; maxReadyLag?: number };
    /** Messages a thread posts to this thread's bus without waiting for it, at most (thread-bridge.ts postedWindow). */
    postedWindow: number;
    /** Whether the thread mirrors its per-fix cache keys (MIRRORED_KEYS). */
    mirrored: boolean;
    clickhouseUrl: string;
    clickhouseDatabase: string;
  };
}

/** What a thread tells its parent. */
export type ThreadReport =
  | { kind: 'listening'; ports: Record<string, number> }
  | { kind: 'metrics'; metrics: MetricsJson }
  | { kind: 'closed' }
  | { kind: 'failed'; error: string };
