import { connect, type Socket } from 'node:net';
import { retryWithBackoff } from '@corridor/platform';
import type { Fix, Sender } from '../truck';
import type { DeviceCodec, DeviceRequest } from './device-codecs';

export interface TcpDeviceSenderOptions {
  host: string;
  port: number;
  /**
   * Further addresses, tried in turn after a connection to the current one fails, as a load
   * balancer sends a reconnecting tracker to another pod when its own is gone.
   */
  failover?: { host: string; port: number }[];
  codec: DeviceCodec;
  /** How long to wait for an acknowledgement before the connection counts as broken. */
  ackTimeoutMs?: number;
  maxRetries?: number;
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  onFailure?: (fix: Fix, reason: string) => void;
  /** Frames the server sent that were not acknowledgements (downlink commands). */
  onServerFrame?: (frame: Buffer) => void;
}

class RequestFailed extends Error {}

/**
 * One tracker's TCP connection, behaving as a device does: connect, log in, send one position at
 * a time and wait for its acknowledgement; when the ack does not come (timeout, connection lost)
 * reconnect with backoff (and jitter), log in again and send the same position again.
 */
export class TcpDeviceSender implements Sender {
  readonly protocol: string;
  readonly stats = { sent: 0, failed: 0, retries: 0, reconnects: 0 };
  private socket: Socket | undefined;
  private loggedIn = false;
  private received: Buffer = Buffer.alloc(0);
  private waiter: ((err?: Error) => void) | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly opts: Required<Omit<TcpDeviceSenderOptions, 'onFailure' | 'onServerFrame'>> &
    Pick<TcpDeviceSenderOptions, 'onFailure' | 'onServerFrame'>;
  private readonly targets: { host: string; port: number }[];
  private target = 0;

  constructor(options: TcpDeviceSenderOptions) {
    this.protocol = options.codec.protocol;
    this.opts = { ackTimeoutMs: 10_000, maxRetries: 3, initialBackoffMs: 250, maxBackoffMs: 4000, failover: [], ...options };
    this.targets = [{ host: options.host, port: options.port }, ...this.opts.failover];
  }

  /** The address the tracker is connected (or connecting) to. */
  get endpoint(): { host: string; port: number } {
    return this.targets[this.target]!;
  }

  /** Sends the fix and waits for its ack, retrying over fresh connections; resolves false after giving up. */
  send(fix: Fix, signal?: AbortSignal): Promise<boolean> {
    const run = this.chain.then(() => this.sendNow(fix, signal));
    this.chain = run.catch(() => undefined);
    return run;
  }

  private async sendNow(fix: Fix, signal?: AbortSignal): Promise<boolean> {
    const onAbort = (): void => {
      this.fail('aborted');
      this.drop();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.attempts(fix, signal);
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private async attempts(fix: Fix, signal?: AbortSignal): Promise<boolean> {
    let reason = 'aborted';
    const out =
      signal?.aborted || this.closed
        ? undefined
        : await retryWithBackoff(
            async () => {
              try {
                if (!this.loggedIn) await this.login();
                await this.request(this.opts.codec.position(fix));
              } catch (err) {
                reason = (err as Error).message;
                this.drop();
                this.target = (this.target + 1) % this.targets.length;
                throw err;
              }
            },
            {
              retries: this.opts.maxRetries,
              initialMs: this.opts.initialBackoffMs,
              maxMs: this.opts.maxBackoffMs,
              ...(signal ? { signal } : {}),
              cancelled: () => this.closed,
              onRetry: () => void this.stats.retries++,
            },
          );
    if (out?.ok) {
      this.stats.sent++;
      return true;
    }
    this.stats.failed++;
    this.opts.onFailure?.(fix, reason);
    return false;
  }

  private async login(): Promise<void> {
    await this.connect();
    await this.request(this.opts.codec.login());
    this.loggedIn = true;
  }

  private connect(): Promise<void> {
    this.drop();
    this.stats.reconnects++;
    return new Promise((resolve, reject) => {
      const socket = connect({ ...this.endpoint, noDelay: true });
      this.socket = socket;
      const onError = (err: Error): void => reject(new RequestFailed(`connect: ${err.message}`));
      const onClose = (): void => reject(new RequestFailed('connection closed before it was established'));
      socket.once('error', onError);
      socket.once('close', onClose);
      socket.once('connect', () => {
        socket.off('error', onError);
        socket.off('close', onClose);
        socket.on('error', () => this.fail('connection error'));
        socket.on('close', () => {
          if (this.socket === socket) this.fail('connection closed');
        });
        socket.on('data', (chunk: Buffer) => {
          this.received = Buffer.concat([this.received, chunk]);
          this.waiter?.();
        });
        resolve();
      });
    });
  }

  private request(req: DeviceRequest): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.destroyed) return Promise.reject(new RequestFailed('not connected'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new RequestFailed('no acknowledgement in time')), this.opts.ackTimeoutMs);
      const done = (err?: Error): void => {
        clearTimeout(timer);
        this.waiter = undefined;
        if (err) reject(err);
        else resolve();
      };
      this.waiter = (err) => {
        if (err) return done(err);
        for (;;) {
          const m = req.match(this.received);
          if (m.kind === 'more') return;
          this.received = this.received.subarray(m.consumed);
          if (m.kind === 'other') {
            this.opts.onServerFrame?.(m.frame);
            continue;
          }
          return done(m.kind === 'ack' ? undefined : new RequestFailed('refused by the server'));
        }
      };
      socket.write(req.frame);
      this.waiter(); // replies may already be buffered
    });
  }

  private fail(reason: string): void {
    this.loggedIn = false;
    this.waiter?.(new RequestFailed(reason));
  }

  private drop(): void {
    this.loggedIn = false;
    this.received = Buffer.alloc(0);
    const s = this.socket;
    this.socket = undefined;
    s?.destroy();
  }

  close(): void {
    this.closed = true;
    this.fail('closed');
    this.drop();
  }
}
