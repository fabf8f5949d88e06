import type { Socket } from 'node:net';
import type { Clock, Logger } from '@corridor/platform';
import { DecodeError, type Protocol, type ProtocolSession } from '../protocols/protocol';
import type { ConnectionRegistry, DeviceLink } from '../commands/connection-registry';
import type { DeviceSession, DeviceSessions } from '../devices/device-sessions';
import { frameMetrics as m } from '../frames/frame-metrics';
import type { FrameSink, FrameVerdict, ReceivedFrame } from '../frames/received-frame';
import type { InflightBudget } from './inflight-budget';
import { splitStream } from './split-stream';

export interface ConnectionLimits {
  idleTimeoutMs: number;
  /** Largest frame; the splitter throws past it and the connection is closed as garbage. */
  maxFrameBytes: number;
  /** Bytes of frames waiting for the bus before this connection stops reading. */
  maxBufferedBytes: number;
}

export interface ConnectionDeps {
  protocol: Protocol;
  handler: FrameSink;
  budget: InflightBudget;
  connections: ConnectionRegistry;
  /** Tells the device state (device-status.v1) when a device is identified here, seen, and gone. */
  sessions?: DeviceSessions;
  limits: ConnectionLimits;
  clock: Clock;
  logger: Logger;
  onClosed: (c: DeviceConnection) => void;
}

/** Decode errors in a row after which a connection counts as garbage and is closed. */
const MAX_CONSECUTIVE_DECODE_ERRORS = 3;
/** How long a refused device gets to read the reply before the socket is destroyed. */
const CLOSE_GRACE_MS = 2000;
const EMPTY = Buffer.alloc(0);

/**
 * One device's TCP connection. Bytes go through the protocol's splitter (partial and coalesced
 * frames), each frame is decoded at once in arrival order (the session learns the device at login),
 * then handled one at a time by an ordered queue: a frame's acknowledgement is written only after
 * FrameHandler resolved for it, which for positions means after the bus confirmed them, and never
 * before the acks of earlier frames. While frames wait for the bus the queue's bytes are bounded:
 * past MAX_BUFFERED_BYTES (or a full server budget) the socket is paused until they drain.
 */
export class DeviceConnection implements DeviceLink {
  readonly session: ProtocolSession = {};
  readonly remote: string;
  readonly protocol: Protocol;
  private pending: Buffer = EMPTY;
  private readonly queue: ReceivedFrame[] = [];
  private queuedBytes = 0;
  private working = false;
  private paused = false;
  private consecutiveErrors = 0;
  private closeReason: string | undefined;
  private boundUniqueId: string | undefined;
  private deviceSession: DeviceSession | undefined;
  private alive = true;
  private logger: Logger | undefined;
  private readonly wake = (): void => this.tryResume();

  constructor(private readonly socket: Socket, private readonly deps: ConnectionDeps) {
    this.protocol = deps.protocol;
    this.remote = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`;
    socket.setNoDelay(true);
    socket.setTimeout(deps.limits.idleTimeoutMs);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('timeout', () => this.onIdle());
    socket.on('error', (err) => {
      this.closeReason ??= 'error';
      this.log.debug({ err: err.message }, 'device connection error');
    });
    socket.on('close', () => this.onClose());
    m.connections.inc({ protocol: this.protocol.name });
    m.connectionsOpened.inc({ protocol: this.protocol.name });
  }

  /** The connection's logger ({ remote, uniqueId }), made when first needed: most connections never log. */
  private get log(): Logger {
    this.logger ??= this.deps.logger.child({ remote: this.remote, ...(this.session.deviceId ? { uniqueId: this.session.deviceId } : {}) });
    return this.logger;
  }

  get open(): boolean {
    return this.alive;
  }

  /** Unique id the connection is bound to (after a known device logged in). */
  get uniqueId(): string | undefined {
    return this.boundUniqueId;
  }

  /** Frames received and not yet handled. */
  get backlog(): number {
    return this.queue.length;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  write(bytes: Buffer): boolean {
    if (!this.alive || this.socket.destroyed) return false;
    this.socket.write(bytes);
    return true;
  }

  /** Closes the connection; `reply` (a refusal) is written first. */
  close(reason: string, reply?: Buffer): void {
    if (!this.alive) return;
    this.alive = false;
    this.closeReason ??= reason;
    if (reply) {
      this.socket.end(reply);
      setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
    } else {
      this.socket.destroy();
    }
  }

  private onData(chunk: Buffer): void {
    if (!this.alive) return;
    const buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const split = splitStream(this.protocol, buf, this.deps.limits.maxFrameBytes);
    for (const bytes of split.frames) {
      this.receive(bytes);
      if (!this.alive) return;
    }
    if (split.error) {
      this.garbage(split.garbage ?? buf, split.error);
      return;
    }
    this.pending = split.rest.length ? Buffer.from(split.rest) : EMPTY;
    this.checkPause();
    void this.drain();
  }

  private receive(bytes: Buffer): void {
    const protocol = this.protocol.name;
    m.frames.inc({ protocol });
    const frame: ReceivedFrame = {
      protocol,
      transport: 'tcp',
      remote: this.remote,
      bytes,
      receivedAt: this.deps.clock.now(),
      arrivedAt: performance.now(),
      uniqueId: undefined,
    };
    try {
      frame.result = this.protocol.decode(bytes, this.session);
      this.consecutiveErrors = 0;
    } catch (err) {
      frame.error = err instanceof DecodeError ? err : new DecodeError('malformed', (err as Error).message);
      this.consecutiveErrors++;
      this.log.debug({ reason: frame.error.reason, frame: bytes.toString('hex') }, 'frame did not decode');
    }
    frame.uniqueId = this.session.deviceId;
    this.queue.push(frame);
    this.queuedBytes += bytes.length;
    this.deps.budget.take(bytes.length);
    if (this.consecutiveErrors >= MAX_CONSECUTIVE_DECODE_ERRORS) {
      void this.drain(); // the queued frames are still archived and counted
      this.close('garbage');
    }
  }

  /** Bytes no frame can be cut from: archived and counted as a decode error, and the connection closed. */
  private garbage(buf: Buffer, error: DecodeError): void {
    const bytes = Buffer.from(buf.subarray(0, Math.min(buf.length, this.deps.limits.maxFrameBytes)));
    m.frames.inc({ protocol: this.protocol.name });
    this.queue.push({
      protocol: this.protocol.name,
      transport: 'tcp',
      remote: this.remote,
      bytes,
      receivedAt: this.deps.clock.now(),
      arrivedAt: performance.now(),
      uniqueId: this.session.deviceId,
      error,
    });
    this.queuedBytes += bytes.length;
    this.deps.budget.take(bytes.length);
    this.log.info({ reason: error.reason, uniqueId: this.session.deviceId }, 'garbage from device: closing the connection');
    this.pending = EMPTY;
    void this.drain();
    this.close('garbage');
  }

  /** Handles queued frames one at a time, in order; only this loop writes acknowledgements. */
  private async drain(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (this.queue.length) {
        const frame = this.queue[0]!;
        let verdict: FrameVerdict;
        try {
          verdict = await this.deps.handler.handle(frame, () => this.alive);
        } catch (err) {
          this.log.error({ err }, 'frame handling failed; closing the connection');
          verdict = { action: 'close', reason: 'internal_error' };
        }
        this.queue.shift();
        this.release(frame.bytes.length);
        this.apply(frame, verdict);
        this.tryResume();
      }
    } finally {
      this.working = false;
    }
  }

  private apply(frame: ReceivedFrame, verdict: FrameVerdict): void {
    if (verdict.action === 'ack') {
      if (verdict.ack && this.write(verdict.ack)) {
        m.acks.inc({ protocol: frame.protocol });
        m.ackLatency.observe({ protocol: frame.protocol }, (performance.now() - frame.arrivedAt) / 1000);
      }
      if (verdict.device && this.alive) this.bind(verdict.device);
    } else if (verdict.action === 'close') {
      this.log.info({ reason: verdict.reason, uniqueId: frame.uniqueId }, 'closing the device connection');
      this.close(verdict.reason, verdict.reply);
    }
  }

  private bind(device: { id: number; uniqueId: string }): void {
    if (this.boundUniqueId === device.uniqueId) {
      this.deviceSession?.seen();
      return;
    }
    if (this.boundUniqueId) this.deps.connections.unbind(this.boundUniqueId, this);
    this.deviceSession?.end();
    this.boundUniqueId = device.uniqueId;
    this.deps.connections.bind(device.uniqueId, this);
    this.deviceSession = this.deps.sessions?.start(device, this.protocol.name);
  }

  private release(n: number): void {
    this.queuedBytes -= n;
    this.deps.budget.release(n);
  }

  private checkPause(): void {
    if (this.paused || !this.alive) return;
    if (this.queuedBytes < this.deps.limits.maxBufferedBytes && !this.deps.budget.full) return;
    this.paused = true;
    this.socket.pause();
    m.paused.inc({ protocol: this.protocol.name });
    if (this.deps.budget.full) this.deps.budget.wait(this.wake);
    this.log.debug({ queuedBytes: this.queuedBytes, serverBytes: this.deps.budget.bytes }, 'frames waiting for the bus: reading paused');
  }

  private tryResume(): void {
    if (!this.paused || !this.alive) return;
    if (this.deps.budget.full) {
      this.deps.budget.wait(this.wake);
      return;
    }
    if (this.queuedBytes > this.deps.limits.maxBufferedBytes / 2) return;
    this.paused = false;
    this.deps.budget.stopWaiting(this.wake);
    this.socket.resume();
  }

  private onIdle(): void {
    if (this.queue.length) return; // waiting for the bus, not idle
    this.close('idle');
  }

  private onClose(): void {
    this.alive = false;
    if (this.boundUniqueId) this.deps.connections.unbind(this.boundUniqueId, this);
    this.deviceSession?.end();
    this.deps.budget.stopWaiting(this.wake);
    if (!this.working && this.queue.length) {
      for (const f of this.queue.splice(0)) this.release(f.bytes.length);
    }
    m.connections.dec({ protocol: this.protocol.name });
    m.connectionsClosed.inc({ protocol: this.protocol.name, reason: this.closeReason ?? 'peer' });
    this.deps.onClosed(this);
  }
}
