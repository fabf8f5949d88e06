import { AppError, isRetryable, retryWithBackoff, type Bus, type Clock, type Logger } from '@corridor/platform';
import type { DeviceRegistry } from '../devices/device-registry';
import type { IncomingFix, IncomingRecord, PositionIntake, RecordSource } from '../positions/intake';
import type { KnownDevice } from '../positions/normalize';
import { rejectedPositions } from '../positions/sanity';
import { stateOf } from '../positions/state-record';
import type { DecodedPosition } from '../protocols/protocol';
import type { RawFrameRecord } from '../archive/raw-frame-archive';
import { rawFrameId as newRawFrameId } from '../archive/frame-id';
import type { CrcPolicy } from '../config';
import type { AlarmIdentity } from './alarm-identity';
import { claimRefusal, type DeviceIdentity, type IdentityVerdict } from './identity';
import { frameMetrics as m } from './frame-metrics';
import type { FrameSink, FrameVerdict, ReceivedFrame } from './received-frame';
import type { UnknownDevicePolicy } from './unknown-devices';

export interface FrameHandlerDeps {
  intake: PositionIntake;
  registry: DeviceRegistry;
  bus: Bus;
  clock: Clock;
  archive: { record(r: RawFrameRecord): void };
  unknown: UnknownDevicePolicy;
  crcPolicy: CrcPolicy;
  /** First-arrival times of alarms without a fix or device time, so a resent frame is one record and one event. */
  alarmIds: AlarmIdentity;
  /** Who may speak for a device: its protocol binding, one device per connection, JT/T 808 codes (identity.ts). */
  identity: DeviceIdentity;
  logger: Logger;
  /** Backoff while the bus is unavailable (tests shorten it). */
  retry?: { initialMs: number; maxMs: number };
}

const IGNORED_LOG_INTERVAL_MS = 60_000;
const TYPE_LABEL = /^[A-Za-z0-9_.:-]{1,24}$/;

/** Decoders name their message types from a small fixed set; anything else is one `other` label. */
function metricType(type: string | undefined): string {
  return type && TYPE_LABEL.test(type) ? type : 'other';
}

/** Reply that refuses a device at login (Teltonika's 0x00), per protocol. */
export type LoginRejects = Partial<Record<string, () => Buffer>>;

/** A frame checked and ready: either its verdict is known without publishing, or it waits for its records' publish. */
interface ToPublish {
  verdict?: undefined;
  frame: ReceivedFrame;
  uniqueId: string;
  records: IncomingRecord[];
  /** the verdict once the records are durable */
  onDurable: FrameVerdict;
}
type Prepared = { verdict: FrameVerdict } | ToPublish;

/**
 * The durable path of device frames, shared by the TCP and UDP ports: archive each frame, identify
 * the device, apply the CRC policy and the sanity check, publish through PositionIntake (fixes, and
 * the device state a frame without a fix reports as a state record) and resolve only once the bus
 * confirmed; the caller writes the acknowledgements after that, in frame order.
 * A TCP connection hands over every frame it has queued as one batch: their records go to the
 * intake in one call (one publish, one track-state save per device), and no frame of the batch
 * gets its ack verdict before all of them are durable. While the bus is unavailable the batch
 * keeps its positions and is retried with backoff (the acks stay held) until it succeeds or the
 * connection goes away. If the intake refuses the batch, each frame is published on its own, so
 * one refused frame never costs the others theirs.
 */
export class FrameHandler implements FrameSink {
  private readonly ignoredLog = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly deps: FrameHandlerDeps,
    private readonly loginRejects: LoginRejects = {},
  ) {}

  async handle(frame: ReceivedFrame, connectionOpen: () => boolean): Promise<FrameVerdict> {
    return (await this.handleBatch([frame], connectionOpen))[0]!;
  }

  /**
   * One verdict per frame, in order. Frames after one that closes the connection are not handled
   * (`abandoned`: the connection is going away, nothing of theirs is acknowledged).
   */
  async handleBatch(frames: readonly ReceivedFrame[], connectionOpen: () => boolean): Promise<FrameVerdict[]> {
    const verdicts: FrameVerdict[] = [];
    const waiting: { index: number; p: ToPublish }[] = [];
    let i = 0;
    for (; i < frames.length; i++) {
      const p = await this.prepare(frames[i]!);
      if (p.verdict) {
        verdicts[i] = p.verdict;
        if (p.verdict.action === 'close') break;
      } else {
        waiting.push({ index: i, p });
      }
    }
    for (let j = i + 1; j < frames.length; j++) verdicts[j] = { action: 'abandoned' };
    if (waiting.length) {
      const records = waiting.flatMap((w) => w.p.records);
      const outcome = await this.publish(records, frames[0]!.protocol, waiting.length === 1 ? waiting[0]!.p : undefined, connectionOpen);
      if (outcome === 'refused' && waiting.length > 1) {
        // one frame's records spoil the batch: each frame on its own, so the others are still stored
        let closed = false;
        for (const w of waiting) {
          verdicts[w.index] = closed
            ? { action: 'abandoned' }
            : await this.verdictOf(w.p, await this.publish(w.p.records, w.p.frame.protocol, w.p, connectionOpen));
          closed ||= verdicts[w.index]!.action === 'close';
        }
      } else {
        for (const w of waiting) verdicts[w.index] = await this.verdictOf(w.p, outcome);
      }
    }
    return verdicts;
  }

  /** Everything before the publish: archive, identify, CRC policy, sanity; the records to publish or the verdict. */
  private async prepare(frame: ReceivedFrame): Promise<Prepared> {
    const { result } = frame;
    const rawFrameId = newRawFrameId(frame.receivedAt.getTime());
    if (!result) {
      const reason = frame.error?.reason ?? 'malformed';
      m.decodeErrors.inc({ protocol: frame.protocol, reason });
      this.archive(frame, rawFrameId, null, 'error', reason);
      return { verdict: { action: 'skip', reason: `decode_error:${reason}` } };
    }
    const uniqueId = result.deviceId ?? frame.uniqueId;
    const device = uniqueId ? await this.deps.registry.lookup(uniqueId) : undefined;
    let ack = result.ack;
    if (device && result.kind !== 'ignored') {
      const verdict = await this.checkIdentity(frame, device, result);
      if (!verdict.accepted) {
        if (result.positions.length) m.dropped.inc({ protocol: frame.protocol, reason: 'identity' }, result.positions.length);
        this.archive(frame, rawFrameId, null, 'refused', `identity:${verdict.reason}`);
        return { verdict: { action: 'close', reason: `identity_${verdict.reason}`, ...(verdict.reply ? { reply: verdict.reply } : {}) } };
      }
      ack = verdict.ack ?? ack;
    }
    this.archive(frame, rawFrameId, device ?? null, result.kind);
    if (result.positions.length) m.positions.inc({ protocol: frame.protocol }, result.positions.length);
    if (result.kind === 'ignored') this.ignored(frame, uniqueId);

    const state = stateOf(result);
    const carriesData = result.positions.length > 0 || state !== undefined;
    if (result.kind === 'login') {
      if (!uniqueId) return { verdict: { action: 'skip', reason: 'login_without_id' } };
      if (!device)
        return { verdict: await this.refuse(frame, uniqueId, false, this.loginRejects[frame.protocol]?.() ?? claimRefusal(result)) };
      if (!carriesData) return { verdict: { action: 'ack', ack, device } };
      // some logins carry a fix (TK103 BP05): it goes the durable way like any position
    }
    if (carriesData && !uniqueId) {
      m.dropped.inc({ protocol: frame.protocol, reason: 'no_login' }, Math.max(result.positions.length, 1));
      return { verdict: { action: 'skip', reason: 'no_login' } };
    }
    if (!result.crcValid) {
      const action = this.deps.crcPolicy[frame.protocol] ?? this.deps.crcPolicy.default;
      m.crcInvalid.inc({ protocol: frame.protocol, action });
      if (action === 'drop') {
        if (result.positions.length) m.dropped.inc({ protocol: frame.protocol, reason: 'crc' }, result.positions.length);
        return { verdict: { action: 'skip', reason: 'crc' } };
      }
    }
    if (!carriesData) return { verdict: { action: 'ack', ack, ...(device ? { device } : {}) } };
    if (!device) return { verdict: await this.refuse(frame, uniqueId!, false) };

    const source = { crcValid: result.crcValid, rawFrameId };
    const records: IncomingRecord[] = this.saneFixes(frame.protocol, uniqueId!, result.positions, source);
    if (state) {
      // the message's time: the device's own, else the arrival (of the first copy, for a resent alarm or command reply)
      const resendable = state.alarms.length > 0 || typeof state.attributes.result === 'string';
      const time =
        result.deviceTime ?? (resendable ? await this.deps.alarmIds.arrivalOf(device.id, frame.bytes, frame.receivedAt) : frame.receivedAt);
      records.push({ uniqueId: uniqueId!, source, state: { ...state, time } });
    }
    return { frame, uniqueId: uniqueId!, records, onDurable: { action: 'ack', ack, device } };
  }

  /** The frame's claim on its device (identity.ts), and on any other device one of its positions names. */
  private async checkIdentity(
    frame: ReceivedFrame,
    device: KnownDevice,
    result: NonNullable<ReceivedFrame['result']>,
  ): Promise<IdentityVerdict> {
    for (const other of new Set(
      result.positions.map((p) => p.deviceId).filter((id): id is string => id !== undefined && id !== device.uniqueId),
    )) {
      const named = await this.deps.registry.lookup(other);
      const verdict = named
        ? await this.deps.identity.check(frame, named, { kind: 'position', positions: [], crcValid: result.crcValid })
        : undefined;
      if (verdict && !verdict.accepted) return verdict;
    }
    // a frame that stores nothing (a login, a bare heartbeat) does not wait for an unbound device's claim
    const stores = result.positions.length > 0 || stateOf(result) !== undefined;
    return this.deps.identity.check(frame, device, result, { stores });
  }

  /**
   * Publishes records (of one frame, `single`, or of a batch), retrying with backoff while the bus
   * is unavailable and the connection open. `unknown_device` and `refused` only for a single frame's
   * publish are final (counted and logged); for a batch the caller retries frame by frame.
   */
  private async publish(
    records: IncomingRecord[],
    protocol: string,
    single: { frame: ReceivedFrame; uniqueId: string } | undefined,
    connectionOpen: () => boolean,
  ): Promise<'durable' | 'abandoned' | 'refused' | 'unknown_device'> {
    try {
      const done = await retryWithBackoff(() => (records.length ? this.deps.intake.accept(records, { protocol }) : Promise.resolve([])), {
        shouldRetry: isRetryable,
        cancelled: () => !connectionOpen(),
        onRetry: (err, n) => {
          m.publishRetries.inc({ protocol });
          if (n === 1 || n % 20 === 0)
            this.deps.logger.warn(
              { err: (err as Error).message, protocol, uniqueId: single?.uniqueId, records: records.length, attempt: n },
              'bus unavailable: holding the acks and retrying',
            );
        },
        ...this.deps.retry,
      });
      if (!done) {
        m.dropped.inc({ protocol, reason: 'connection_closed' }, records.length);
        return 'abandoned';
      }
      if (!done.ok) throw done.error;
      return 'durable';
    } catch (err) {
      if (!single) return 'refused';
      if (err instanceof AppError && err.code === 'UNKNOWN_DEVICE') return 'unknown_device';
      this.deps.logger.error({ err, protocol, uniqueId: single.uniqueId }, 'frame refused by the intake; not acknowledged');
      m.dropped.inc({ protocol, reason: 'refused' }, records.length);
      return 'refused';
    }
  }

  private async verdictOf(p: ToPublish, outcome: 'durable' | 'abandoned' | 'refused' | 'unknown_device'): Promise<FrameVerdict> {
    if (outcome === 'durable') return p.onDurable;
    if (outcome === 'abandoned') return { action: 'abandoned' };
    if (outcome === 'refused') return { action: 'skip', reason: 'refused' };
    return this.refuse(p.frame, p.uniqueId, true);
  }

  /**
   * A frame that decoded to nothing stored (a refused or unknown message type): counted per
   * protocol and type; logged at info at most once a minute per protocol and type (with how many
   * were not logged since), every time at debug with the frame's hex.
   */
  private ignored(frame: ReceivedFrame, uniqueId: string | undefined): void {
    const type = metricType(frame.result?.type);
    const reason = frame.result?.ignoredReason ?? 'not decoded';
    m.ignored.inc({ protocol: frame.protocol, type });
    const key = `${frame.protocol}:${type}`;
    const now = frame.receivedAt.getTime();
    const last = this.ignoredLog.get(key);
    if (!last || now - last.at >= IGNORED_LOG_INTERVAL_MS) {
      this.ignoredLog.set(key, { at: now, suppressed: 0 });
      this.deps.logger.info(
        { protocol: frame.protocol, type, reason, uniqueId, notLogged: last?.suppressed ?? 0 },
        'frame ignored: nothing stored',
      );
    } else {
      last.suppressed++;
    }
    this.deps.logger.debug({ protocol: frame.protocol, type, reason, uniqueId, frame: frame.bytes.toString('hex') }, 'frame ignored');
  }

  /** Fixes that pass the shared sanity check; the rest are counted with their reason and dropped. */
  private saneFixes(protocol: string, uniqueId: string, positions: DecodedPosition[], source: RecordSource): IncomingFix[] {
    const now = this.deps.clock.now();
    const out: IncomingFix[] = [];
    for (const position of positions) {
      const reason = this.deps.intake.sanity(position, now);
      if (reason) rejectedPositions.inc({ protocol, reason });
      else out.push({ uniqueId: position.deviceId ?? uniqueId, position, source });
    }
    return out;
  }

  private async refuse(frame: ReceivedFrame, uniqueId: string, counted: boolean, reply?: Buffer): Promise<FrameVerdict> {
    if (frame.result?.positions.length)
      m.dropped.inc({ protocol: frame.protocol, reason: 'unknown_device' }, frame.result.positions.length);
    await this.deps.unknown.refuse(uniqueId, frame.protocol, frame.remote, counted);
    return { action: 'close', reason: 'unknown_device', ...(reply ? { reply } : {}) };
  }

  private archive(frame: ReceivedFrame, id: string, device: KnownDevice | null, outcome: string, errorReason?: string): void {
    this.deps.archive.record({
      id,
      receivedAt: frame.receivedAt,
      protocol: frame.protocol,
      transport: frame.transport,
      deviceId: device?.id ?? null,
      uniqueId: frame.result?.deviceId ?? frame.uniqueId ?? null,
      remote: frame.remote,
      frame: frame.bytes,
      outcome,
      ...(errorReason ? { errorReason } : {}),
      positions: frame.result?.positions.length ?? 0,
      crcValid: frame.result?.crcValid ?? false,
    });
  }
}
