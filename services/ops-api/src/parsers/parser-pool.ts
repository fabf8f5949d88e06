import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import genericPool, { type Pool } from 'generic-pool';
import pidusage from 'pidusage';
import { AppError, counter, type Logger } from '@corridor/platform';
import type { ParserSettings } from './settings';
import type { TaskIO, TaskMessage, TaskName, WorkerMessage } from './tasks';

const parses = counter('ops_document_parses_total', 'Documents read by the reader processes, by task and outcome', ['task', 'outcome']);
const readers = counter(
  'ops_document_readers_total',
  'Reader processes started, and ended by the pool (killed past a limit, recycled, closed)',
  ['event'],
);

/** How often a busy reader's resident memory is read. */
const MEMORY_POLL_MS = 20;
/** A reader that ends a task above this share of its memory limit is replaced rather than kept. */
const RECYCLE_SHARE = 0.75;
/** Time a reader gets to start and load its libraries. */
const START_TIMEOUT_MS = 60_000;

interface Reader {
  child: ChildProcess;
  /** Why the pool killed it, once it did. */
  killed?: 'time' | 'memory';
}

const here = import.meta.url;
/** The reader's entry beside this file: compiled JavaScript in production, TypeScript through tsx in development and tests. */
const workerEntry = (): { file: string; execArgv: string[] } =>
  here.endsWith('.js')
    ? { file: fileURLToPath(new URL('./parse-worker.js', here)), execArgv: [] }
    : { file: fileURLToPath(new URL('./parse-worker.ts', here)), execArgv: ['--import', 'tsx'] };

/**
 * Untrusted documents are read in child processes, never in the service's thread (issue 23: one
 * PDF inflating to 200 MiB held ops-api's event loop for 158 s and its memory at 4 GiB). A pool
 * (generic-pool) of at most `processes` readers, each reading one document at a time, with
 * `queue` requests waiting at most (one more: 503); per document a wall-clock limit, a resident
 * memory limit read every 20 ms (the reader's V8 heap is capped below it, but pdf.js inflates into
 * ArrayBuffers no heap limit covers, hence processes rather than worker threads), and in the
 * reader a cap on inflated bytes measured before pdf.js runs (parse-worker.ts). Past a limit the
 * reader is killed (SIGKILL) and replaced, and the request gets 422 naming the limit. Readers get
 * no secrets: their environment is PATH and NODE_ENV.
 */
export class ParserPool {
  private readonly pool: Pool<Reader>;
  private nextId = 1;

  constructor(
    private readonly settings: ParserSettings,
    private readonly logger: Logger,
  ) {
    const heapMb = Math.max(64, Math.floor((settings.memoryBytes / 1048576) * 0.6));
    // a document whose reader is still starting waits in generic-pool's queue too: `processes` more may wait
    this.pool = genericPool.createPool<Reader>(
      {
        create: () => this.start(heapMb),
        destroy: async (r) => {
          if (r.child.exitCode === null && r.child.signalCode === null) {
            const gone = new Promise<void>((resolve) => r.child.once('exit', () => resolve()));
            r.child.kill('SIGKILL');
            await gone;
          }
        },
        validate: async (r) => r.child.connected && !r.killed,
      },
      {
        max: settings.processes,
        min: 0,
        maxWaitingClients: settings.queue + settings.processes,
        testOnBorrow: true,
        idleTimeoutMillis: 300_000,
        evictionRunIntervalMillis: 60_000,
        autostart: false,
      },
    );
  }

  /** Reads one document in a reader process. */
  async run<T extends TaskName>(task: T, input: TaskIO[T]['input']): Promise<TaskIO[T]['output']> {
    let reader: Reader;
    try {
      reader = await this.pool.acquire();
    } catch (err) {
      parses.inc({ task, outcome: 'busy' });
      if (/max waitingClients/.test((err as Error).message)) {
        throw new AppError(
          'UNAVAILABLE',
          `Every document reader is busy and ${this.settings.queue} documents wait; try again shortly`,
          { retryAfterSeconds: Math.ceil(this.settings.timeoutMs / 1000) },
          true,
        );
      }
      throw new AppError('UNAVAILABLE', 'No document reader could be started', { cause: (err as Error).message }, true);
    }
    try {
      const result = await this.exchange(reader, task, input);
      parses.inc({ task, outcome: 'read' });
      await this.giveBack(reader);
      return result as TaskIO[T]['output'];
    } catch (err) {
      if (reader.killed || !reader.child.connected) {
        readers.inc({ event: reader.killed ? `killed_${reader.killed}` : 'crashed' });
        await this.pool.destroy(reader);
      } else {
        await this.giveBack(reader);
      }
      parses.inc({
        task,
        outcome: err instanceof AppError ? ((err.details as { reason?: string } | undefined)?.reason ?? err.code) : 'failed',
      });
      throw err;
    }
  }

  /** Stops every reader. */
  async close(): Promise<void> {
    await this.pool.drain();
    await this.pool.clear();
  }

  private async start(heapMb: number): Promise<Reader> {
    const { file, execArgv } = workerEntry();
    const child = fork(file, [], {
      execArgv: [...execArgv, `--max-old-space-size=${heapMb}`],
      env: { PATH: process.env.PATH ?? '', NODE_ENV: process.env.NODE_ENV ?? 'production' },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    readers.inc({ event: 'started' });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error('did not start in time')), START_TIMEOUT_MS);
      const fail = (err: Error) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(err);
      };
      child.once('error', fail);
      child.once('exit', (code, signal) => fail(new Error(`exited while starting (code ${code}, signal ${signal})`)));
      child.once('message', (m: WorkerMessage) => {
        if (!('ready' in m)) return fail(new Error('spoke before it was ready'));
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.removeAllListeners('error');
        resolve();
      });
    });
    child.on('error', (err) => this.logger.warn({ err: err.message, pid: child.pid }, 'document reader error'));
    return { child };
  }

  /** Sends the task and waits for its answer, killing the reader past the time or memory limit. */
  private exchange(reader: Reader, task: TaskName, input: unknown): Promise<unknown> {
    const { child } = reader;
    const id = this.nextId++;
    const { timeoutMs, memoryBytes } = this.settings;
    return new Promise((resolve, reject) => {
      let polling = false;
      const kill = (why: 'time' | 'memory') => {
        if (reader.killed) return;
        reader.killed = why;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => kill('time'), timeoutMs);
      const watch = setInterval(() => {
        if (polling || child.pid === undefined) return;
        polling = true;
        pidusage(child.pid).then(
          (s) => {
            polling = false;
            if (s.memory > memoryBytes) kill('memory');
          },
          () => (polling = false),
        );
      }, MEMORY_POLL_MS);
      const done = () => {
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      const onMessage = (m: WorkerMessage) => {
        if ('ready' in m || m.id !== id) return;
        done();
        if (m.ok) resolve(m.result);
        else reject(new AppError(m.error.code as never, m.error.message, m.error.details ?? undefined));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        done();
        // a V8 heap past --max-old-space-size ends the reader itself (code 134, or SIGABRT)
        const outOfHeap = !reader.killed && (code === 134 || signal === 'SIGABRT');
        if (outOfHeap) reader.killed = 'memory';
        reject(this.limitError(reader.killed, code, signal));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      const message: TaskMessage = { id, task, input, limits: { inflatedBytes: this.settings.inflatedBytes } };
      child.send(message, (err) => {
        if (err) kill('time');
      });
    });
  }

  private limitError(killed: Reader['killed'], code: number | null, signal: NodeJS.Signals | null): AppError {
    const check = 'Upload the document as exported from the issuing portal (a form is a few hundred kilobytes), or its JSON/CSV export.';
    if (killed === 'time') {
      const seconds = Math.round(this.settings.timeoutMs / 1000);
      return new AppError('UNPROCESSABLE', `Reading the document took longer than ${seconds} s, the reader's limit`, {
        reason: 'time_limit',
        limitSeconds: seconds,
        check,
      });
    }
    if (killed === 'memory') {
      const mib = Math.round(this.settings.memoryBytes / 1048576);
      return new AppError('UNPROCESSABLE', `Reading the document needed more than ${mib} MiB of memory, the reader's limit`, {
        reason: 'memory_limit',
        limitMiB: mib,
        check,
      });
    }
    this.logger.warn({ code, signal }, 'document reader ended while reading');
    return new AppError('UNPROCESSABLE', 'The document could not be read: the reader stopped while reading it', {
      reason: 'reader_failed',
      check,
    });
  }

  /** A reader that grew near its limit is replaced; the others wait for the next document. */
  private async giveBack(reader: Reader): Promise<void> {
    const rss =
      reader.child.pid === undefined
        ? 0
        : await pidusage(reader.child.pid).then(
            (s) => s.memory,
            () => 0,
          );
    if (rss > this.settings.memoryBytes * RECYCLE_SHARE) {
      readers.inc({ event: 'recycled' });
      await this.pool.destroy(reader);
    } else {
      await this.pool.release(reader);
    }
  }
}
