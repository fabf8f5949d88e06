import type { Socket } from 'node:net';
import type { Clock, Logger } from '@corridor/platform';
import { DecodeError, type Protocol, type ProtocolSession } from '../protocols/protocol';
import type { ConnectionRegistry, DeviceLink } from '../commands/connection-registry';
import type { DeviceSession, DeviceSessions } from '../devices/device-sessions';
import { frameMetrics as m, protocolFrameMetrics, type ProtocolFrameMetrics } from '../frames/frame-metrics';
import type { ConnectionIdentity } from '../frames/identity';
import type { FrameSink, FrameVerdict, ReceivedFrame } from '../frames/received-frame';
import type { IntakeGate } from '../positions/intake-gate';
import type { InflightBudget } from './inflight-budget';
import { splitStream } from './split-stream';
import type { TurnScheduler, TurnWork } from './turn-scheduler';

export interface ConnectionLimits {
  idleTimeoutMs: number;
  /** Largest frame; the splitter throws past it and the connection is closed as garbage. */
  maxFrameBytes: number;
  /** Bytes of frames waiting for the bus before this connection stops reading. */
  maxBufferedBytes: number;
  /** Most frames handed to the sink at once (default: every admitted frame, MAX_ADMITTED_FRAMES); 1 hands them one by one. */
  maxBatchFrames?: number;
}

export interface ConnectionDeps {
  protocol: Protocol;
  handler: FrameSink;
  budget: InflightBudget;
  /** The service-wide budget of fixes waiting for the bus (every port and the HTTP APIs). */
  gate: IntakeGate;
  /** Runs the connections' batches in bounded slices per event-loop turn, identities first (turn-scheduler.ts). */
  turns: TurnScheduler;
  connections: ConnectionRegistry;
  /** Tells the device state (device-status.v1) when a device is identified here, seen, and gone. */
  sessions?: DeviceSessions;
  limits: ConnectionLimits;
  clock: Clock;
  logger: Logger;
  onClosed: (c: DeviceConnection) => void;
}

/**
 * Frames of one connection admitted at once, and so the largest batch. A batch goes to the bus
 * after the one before was confirmed, so admitting more only makes the last frames wait longer
 * while they take room other connections could use; the rest stay held until these are done.
 */
const MAX_ADMITTED_FRAMES = 8;
/** Decode errors in a row after which a connection counts as garbage and is closed. */
const MAX_CONSECUTIVE_DECODE_ERRORS = 3;
/** How long a refused device gets to read the reply before the socket is destroyed. */
const CLOSE_GRACE_MS = 2000;
const EMPTY = Buffer.alloc(0);

interface Queued {
  frame: ReceivedFrame;
  /** Fixes taken from the intake gate for it (at least 1). */
  fixes: number;
}

/** A frame that decoded to no fix: a login, heartbeat, status or alarm without a fix. It never waits for the intake gate. */
const isControl = (q: Queued): boolean => q.frame.result !== undefined && q.frame.result.positions.length === 0;

/**
 * One device's TCP connection. Bytes go through the protocol's splitter (partial and coalesced
 * frames); each frame is admitted through the service's intake gate, decoded in arrival order (the
 * session learns the device at login), then handed to FrameHandler by an ordered queue, every
 * frame queued at that moment as one batch: a frame's acknowledgement is written only after
 * FrameHandler resolved for its batch, which for positions means after the bus confirmed all of
 * them, never before the acks of earlier frames, and a batch's acks go out in one socket write. While frames wait for
 * the bus, reading stops (socket.pause) when the gate has no room (frames already read are decoded
 * and held until it has: oldest connection first), when the queue holds MAX_BUFFERED_BYTES, or when
 * the server's budget is full. A frame without a fix (login, heartbeat, status) is never held by
 * the gate: identities go through while positions wait. Batches are started by the instance's
 * TurnScheduler, a bounded number of frames per turn of the event loop and logins first, so no
 * connection's positions keep the thread from accepting and reading a new tracker.
 */
export class DeviceConnection implements DeviceLink, TurnWork {
  readonly session: ProtocolSession = {};
  /** What this connection has established about its device (frames/identity.ts). */
  private readonly identity: ConnectionIdentity = {};
  readonly remote: string;
  readonly protocol: Protocol;
  private readonly metrics: ProtocolFrameMetrics;
  private pending: Buffer = EMPTY;
  private readonly queue: Queued[] = [];
  /** Frames cut from the stream (and decoded, in order) while the gate had no room for their fixes: not yet admitted. */
  private held: Queued[] = [];
  private waitingForGate = false;
  private queuedBytes = 0;
  private working = false;
  private drainScheduled = false;
  private paused = false;
  private consecutiveErrors = 0;
  /** When the unfinished frame in `pending` began (performance.now(); reset while reading is paused): a frame may take idleTimeoutMs at most. */
  private partialSince: number | undefined;
  private closeReason: string | undefined;
  private boundUniqueId: string | undefined;
  private deviceSession: DeviceSession | undefined;
  private alive = true;
  private logger: Logger | undefined;
  private readonly wake = (): void => this.tryResume();
  private readonly gateWake = (): void => {
    this.waitingForGate = false;
    this.admitHeld();
    this.scheduleDrain();
    this.tryResume();
  };

  constructor(
    private readonly socket: Socket,
    private readonly deps: ConnectionDeps,
  ) {
    this.protocol = deps.protocol;
    this.metrics = protocolFrameMetrics(deps.protocol.name);
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

  /** Frames received and not yet handled (held ones included). */
  get backlog(): number {
    return this.queue.length + this.held.length;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Bytes written to the device so far (acks, replies), those still in the socket's buffer included. */
  get bytesWritten(): number {
    return this.socket.bytesWritten;
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
    if (split.error) {
      // the frames before the garbage are still handled, room or not: the connection closes
      for (const bytes of split.frames) this.held.push(this.decode(bytes));
      for (const q of this.held.splice(0)) this.admit(q);
      this.garbage(split.garbage ?? buf, split.error);
      return;
    }
    for (const bytes of split.frames) {
      this.held.push(this.decode(bytes));
      if (this.consecutiveErrors >= MAX_CONSECUTIVE_DECODE_ERRORS) {
        // the frames read so far are still archived and counted, room or not
        for (const q of this.held.splice(0)) this.admit(q);
        void this.drain();
        this.log.info({ errors: this.consecutiveErrors }, 'frames that do not decode, in a row: closing the connection');
        this.close('garbage');
        return;
      }
    }
    this.pending = split.rest.length ? Buffer.from(split.rest) : EMPTY;
    if (this.slowFrame(split.frames.length > 0)) return;
    this.admitHeld();
    this.checkPause();
    this.scheduleDrain();
  }

  /**
   * A frame still unfinished idleTimeoutMs after its first byte closes the connection (slow_frame):
   * a tracker writes a frame at once, and a peer trickling bytes would keep the idle timer from
   * ever firing while it holds a connection and a buffer. Time spent paused does not count.
   */
  private slowFrame(newFrameStarted: boolean): boolean {
    if (!this.pending.length) {
      this.partialSince = undefined;
      return false;
    }
    const now = performance.now();
    if (newFrameStarted || this.partialSince === undefined) this.partialSince = now;
    if (now - this.partialSince <= this.deps.limits.idleTimeoutMs) return false;
    this.log.info(
      { pendingBytes: this.pending.length, ms: Math.round(now - this.partialSince) },
      'a frame slower than the idle timeout: closing the connection',
    );
    this.pending = EMPTY;
    this.close('slow_frame');
    return true;
  }

  /**
   * Queues the connection's next batch with the scheduler (turn-scheduler.ts), which starts it in a
   * slice after the reads of this turn of the event loop (setImmediate runs after the poll phase
   * that delivered them), so frames a device wrote together go as one batch even when they arrived
   * in several reads; a batch whose first frame carries no fix (a login, a heartbeat) is started
   * before every position batch waiting. A connection closing meanwhile starts it at once (onClose).
   */
  private scheduleDrain(): void {
    if (this.working || this.drainScheduled || !this.queue.length) return;
    this.drainScheduled = true;
    this.deps.turns.schedule(this, isControl(this.queue[0]!));
  }

  /** The scheduler's call: starts the next batch; returns its frames. */
  runTurn(): number {
    if (!this.drainScheduled) return 0; // started meanwhile (the connection closed)
    this.drainScheduled = false;
    if (this.working || !this.queue.length) return 0;
    void this.drain();
    return Math.min(this.queue.length, this.deps.limits.maxBatchFrames ?? MAX_ADMITTED_FRAMES);
  }

  /**
   * Admits held frames, in order, while the gate has room and this connection is under its share.
   * A frame that carries no fix (a login, a heartbeat or status, an alarm without a fix) at the
   * head goes in whatever the gate says: under overload positions wait, a device's identity and
   * its link never do (a tracker that cannot log in reconnects and never reports).
   */
  private admitHeld(): void {
    while (this.held.length && this.alive) {
      const head = this.held[0]!;
      if (!isControl(head) && !(this.queue.length < MAX_ADMITTED_FRAMES && this.deps.gate.hasRoom)) return;
      this.admit(this.held.shift()!);
    }
  }

  /** Decodes a frame in arrival order with the connection's session (the login teaches it the device). */
  private decode(bytes: Buffer): Queued {
    this.metrics.frames.inc();
    const frame: ReceivedFrame = {
      protocol: this.protocol.name,
      transport: 'tcp',
      remote: this.remote,
      bytes,
      receivedAt: this.deps.clock.now(),
      arrivedAt: performance.now(),
      uniqueId: undefined,
      connection: this.identity,
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
    return { frame, fixes: Math.max(1, frame.result?.positions.length ?? 0) };
  }

  /** Takes the frame's fixes from the gate (room or not: the caller decided) and queues it for the durable path. */
  private admit(q: Queued): void {
    this.deps.gate.admit(q.fixes);
    this.queue.push(q);
    this.queuedBytes += q.frame.bytes.length;
    this.deps.budget.take(q.frame.bytes.length);
  }

  /** Bytes no frame can be cut from: archived and counted as a decode error, and the connection closed. */
  private garbage(buf: Buffer, error: DecodeError): void {
    const bytes = Buffer.from(buf.subarray(0, Math.min(buf.length, this.deps.limits.maxFrameBytes)));
    m.frames.inc({ protocol: this.protocol.name });
    this.deps.gate.admit(1);
    this.queue.push({
      frame: {
        protocol: this.protocol.name,
        transport: 'tcp',
        remote: this.remote,
        bytes,
        receivedAt: this.deps.clock.now(),
        arrivedAt: performance.now(),
        uniqueId: this.session.deviceId,
        error,
      },
      fixes: 1,
    });
    this.queuedBytes += bytes.length;
    this.deps.budget.take(bytes.length);
    this.log.info({ reason: error.reason, uniqueId: this.session.deviceId }, 'garbage from device: closing the connection');
    this.pending = EMPTY;
    void this.drain();
    this.close('garbage');
  }

  /**
   * Hands the queued frames over as one batch (at most `maxBatchFrames`), applies their verdicts in
   * order and writes the batch's acknowledgements in one socket write; the next batch goes back to
   * the scheduler, so one connection's queue never takes a whole turn (a closed connection's are
   * handled at once: they are at most what it had read). Only this loop writes acknowledgements.
   */
  private async drain(): Promise<void> {
    if (this.working) return;
    this.working = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.slice(0, this.deps.limits.maxBatchFrames ?? MAX_ADMITTED_FRAMES);
        const frames = batch.map((q) => q.frame);
        let verdicts: FrameVerdict[];
        const started = performance.now();
        try {
          verdicts = await this.deps.handler.handleBatch(frames, () => this.alive);
          m.batchLatency.observe({ protocol: this.protocol.name }, (performance.now() - started) / 1000);
        } catch (err) {
          this.log.error({ err }, 'frame handling failed; closing the connection');
          verdicts = frames.map(() => ({ action: 'close', reason: 'internal_error' }));
        }
        this.queue.splice(0, batch.length);
        const acks: ReceivedFrame[] = [];
        const ackBytes: Buffer[] = [];
        for (const [i, { frame, fixes }] of batch.entries()) {
          this.release(frame.bytes.length, fixes);
          const verdict = verdicts[i] ?? { action: 'abandoned' };
          if (verdict.action === 'ack') {
            if (verdict.ack && this.alive) {
              acks.push(frame);
              ackBytes.push(verdict.ack);
            }
            if (verdict.device && this.alive) this.bind(verdict.device, frame.receivedAt);
          } else if (verdict.action === 'close' && this.alive) {
            this.writeAcks(acks, ackBytes); // the earlier frames' acks go before the refusal
            this.log.info({ reason: verdict.reason, uniqueId: frame.uniqueId }, 'closing the device connection');
            this.close(verdict.reason, verdict.reply);
          }
        }
        this.writeAcks(acks, ackBytes);
        this.admitHeld();
        this.tryResume();
        if (this.alive) break; // the next batch waits for its slice; a closed connection's go now
      }
    } finally {
      this.working = false;
    }
    this.scheduleDrain();
  }

  /** The acknowledgements of handled frames, in order, in one socket write. */
  private writeAcks(frames: ReceivedFrame[], bytes: Buffer[]): void {
    if (!bytes.length) return;
    if (this.write(bytes.length === 1 ? bytes[0]! : Buffer.concat(bytes))) {
      const now = performance.now();
      this.metrics.acks.inc(frames.length);
      for (const f of frames) this.metrics.ackLatency.observe((now - f.arrivedAt) / 1000);
    }
    frames.length = 0;
    bytes.length = 0;
  }

  private bind(device: { id: number; uniqueId: string }, at: Date): void {
    if (this.boundUniqueId === device.uniqueId) {
      this.deviceSession?.seen(at);
      return;
    }
    if (this.boundUniqueId) this.deps.connections.unbind(this.boundUniqueId, this);
    this.deviceSession?.end();
    this.boundUniqueId = device.uniqueId;
    this.deps.connections.bind(device.uniqueId, this);
    this.deviceSession = this.deps.sessions?.start(device, this.protocol.name, this.remote, at);
  }

  private release(bytes: number, fixes: number): void {
    this.queuedBytes -= bytes;
    this.deps.budget.release(bytes);
    this.deps.gate.release(fixes);
  }

  /** Waits for room in the gate, when that is what keeps the held frames back. */
  private waitForGate(): void {
    if (this.waitingForGate || !this.held.length || this.queue.length >= MAX_ADMITTED_FRAMES) return;
    this.waitingForGate = true;
    this.deps.gate.wait(this.gateWake);
  }

  private checkPause(): void {
    if (!this.alive) return;
    this.waitForGate();
    if (this.paused) return;
    if (!this.held.length && this.queuedBytes < this.deps.limits.maxBufferedBytes && !this.deps.budget.full) return;
    this.paused = true;
    this.socket.pause();
    m.paused.inc({ protocol: this.protocol.name });
    if (this.deps.budget.full) this.deps.budget.wait(this.wake);
    this.log.debug(
      {
        held: this.held.length,
        queuedBytes: this.queuedBytes,
        serverBytes: this.deps.budget.bytes,
        pendingFixes: this.deps.gate.pendingFixes,
      },
      'frames waiting for the bus: reading paused',
    );
  }

  private tryResume(): void {
    if (!this.paused || !this.alive) return;
    if (this.held.length) {
      this.waitForGate();
      return;
    }
    if (this.deps.budget.full) {
      this.deps.budget.wait(this.wake);
      return;
    }
    if (this.queuedBytes > this.deps.limits.maxBufferedBytes / 2) return;
    this.paused = false;
    if (this.partialSince !== undefined) this.partialSince = performance.now();
    this.deps.budget.stopWaiting(this.wake);
    this.socket.resume();
  }

  private onIdle(): void {
    if (this.queue.length || this.held.length) return; // waiting for the bus, not idle
    if (this.pending.length) {
      this.log.info({ pendingBytes: this.pending.length }, 'a frame left unfinished for the idle timeout: closing the connection');
      this.close('truncated');
      return;
    }
    this.close('idle');
  }

  private onClose(): void {
    this.alive = false;
    if (this.boundUniqueId) this.deps.connections.unbind(this.boundUniqueId, this);
    this.deviceSession?.end();
    this.deps.budget.stopWaiting(this.wake);
    this.deps.gate.cancel(this.gateWake);
    this.held = [];
    // frames read before the close and waiting for their batch are handled as if it had started
    // (archived, published; not acknowledged); the scheduled start finds the drain working or done
    if (this.drainScheduled) void this.drain();
    else if (!this.working && this.queue.length) {
      for (const q of this.queue.splice(0)) this.release(q.frame.bytes.length, q.fixes);
    }
    m.connections.dec({ protocol: this.protocol.name });
    m.connectionsClosed.inc({ protocol: this.protocol.name, reason: this.closeReason ?? 'peer' });
    this.deps.onClosed(this);
  }
}
