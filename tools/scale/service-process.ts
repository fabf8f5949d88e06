import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './until';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));

export type ServiceName = 'gateway' | 'ingest' | 'journey' | 'geofence' | 'ops-api';

/**
 * One service running as its own operating-system process, as a pod runs it: `node --import tsx
 * services/<service>/src/main.ts` with its environment, output to a log file. SIGKILL ends it at
 * once (no graceful close: open connections drop, uncommitted consumer offsets stay uncommitted);
 * start() runs it again with the same environment and ports.
 */
export class ServiceProcess {
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  /** Set when the process ended without being asked to. */
  private crash: string | undefined;
  starts = 0;

  constructor(
    readonly name: string,
    readonly service: ServiceName,
    readonly port: number,
    private readonly env: Record<string, string>,
    readonly logFile: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== undefined;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): void {
    if (this.child) return;
    this.crash = undefined;
    this.starts++;
    const out = openSync(this.logFile, 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', join(REPO, 'services', this.service, 'src', 'main.ts')], {
      cwd: REPO,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...this.env, PORT: String(this.port) },
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    this.child = child;
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        if (this.child === child) {
          this.child = undefined;
          this.crash = `${this.name} exited (code ${code}, signal ${signal})`;
        }
        resolve();
      });
    });
  }

  /** Times the process ended before it was ready and was started again (startUntilReady). */
  failedStarts = 0;

  /**
   * Starts the process and waits until it is ready; a process that exits while starting is started
   * again, at most `attempts` times in all, as Kubernetes restarts a pod whose container failed (a
   * service exits when a part it needs refuses it at start, e.g. a topic's metadata not yet served).
   * Each such restart is counted (failedStarts) and reported; a crash after readiness is never retried.
   */
  async startUntilReady(attempts = 3, ceilingMs = 240_000): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.start();
      try {
        await this.ready(ceilingMs);
        return;
      } catch (err) {
        if (this.running || attempt >= attempts) throw err;
        this.failedStarts++;
      }
    }
  }

  /** Waits until /readyz answers 200 (fails at once if the process died). */
  async ready(ceilingMs = 240_000): Promise<void> {
    await until(
      `${this.name} ready`,
      async () => {
        if (this.crash) throw new Error(`${this.crash}; ${this.tail()}`);
        try {
          const res = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(5000) });
          return res.status === 200;
        } catch {
          return false;
        }
      },
      ceilingMs,
    );
  }

  /** A crash that nobody asked for, with the end of its log; undefined while it runs (or was stopped). */
  failure(): string | undefined {
    return this.crash ? `${this.crash}; ${this.tail()}` : undefined;
  }

  /** Ends the process with `signal` and waits for it to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined; // asked for: not a crash
    child.kill(signal);
    const killer = signal === 'SIGKILL' ? undefined : setTimeout(() => child.kill('SIGKILL'), 15_000);
    await this.exited;
    if (killer) clearTimeout(killer);
  }

  tail(lines = 20): string {
    if (!existsSync(this.logFile)) return `no log at ${this.logFile}`;
    return `last lines of ${this.logFile}:\n` + readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  }
}
