import { AppError, isRetryable, type Bus, type Clock, type Logger } from '@corridor/platform';
import type { DeviceRegistry } from '../devices/device-registry';
import type { IncomingFix, IncomingRecord, PositionIntake } from '../positions/intake';
import type { KnownDevice } from '../positions/normalize';
import { rejectedPositions } from '../positions/sanity';
import { stateOf } from '../positions/state-record';
import type { DecodedPosition } from '../protocols/protocol';
import type { RawFrameRecord } from '../archive/raw-frame-archive';
import { rawFrameId as newRawFrameId } from '../archive/frame-id';
import type { CrcPolicy } from '../config';
import type { AlarmIdentity } from './alarm-identity';
import { frameMetrics as m } from './frame-metrics';
import type { FrameSink, FrameVerdict, ReceivedFrame } from './received-frame';
import { retryWithBackoff } from './retry';
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

/**
 * The durable path of one device frame, shared by the TCP and UDP ports: archive it, identify the
 * device, apply the CRC policy and the sanity check, publish through PositionIntake (fixes, and the
 * device state a frame without a fix reports as a state record) and resolve only once the bus
 * confirmed; the caller writes the acknowledgement after that, in frame order.
 * While the bus is unavailable it keeps the frame's positions and retries with backoff (the ack
 * stays held) until it succeeds or the connection goes away.
 */
export class FrameHandler implements FrameSink {
  private readonly ignoredLog = new Map<string, { at: number; suppressed: number }>();

  constructor(private readonly deps: FrameHandlerDeps, private readonly loginRejects: LoginRejects = {}) {}

  async handle(frame: ReceivedFrame, connectionOpen: () => boolean): Promise<FrameVerdict> {
    const { result } = frame;
    const rawFrameId = newRawFrameId(frame.receivedAt.getTime());
    if (!result) {
      const reason = frame.error?.reason ?? 'malformed';
      m.decodeErrors.inc({ protocol: frame.protocol, reason });
      this.archive(frame, rawFrameId, null, 'error', reason);
      return { action: 'skip', reason: `decode_error:${reason}` };
    }
    const uniqueId = result.deviceId ?? frame.uniqueId;
    const device = uniqueId ? await this.deps.registry.lookup(uniqueId) : undefined;
    this.archive(frame, rawFrameId, device ?? null, result.kind);
    if (result.positions.length) m.positions.inc({ protocol: frame.protocol }, result.positions.length);
    if (result.kind === 'ignored') this.ignored(frame, uniqueId);

    const state = stateOf(result);
    const carriesData = result.positions.length > 0 || state !== undefined;
    if (result.kind === 'login') {
      if (!uniqueId) return { action: 'skip', reason: 'login_without_id' };
      if (!device) return this.refuse(frame, uniqueId, false, this.loginRejects[frame.protocol]?.());
      if (!carriesData) return { action: 'ack', ack: result.ack, device };
      // some logins carry a fix (TK103 BP05): it goes the durable way like any position
    }
    if (carriesData && !uniqueId) {
      m.dropped.inc({ protocol: frame.protocol, reason: 'no_login' }, Math.max(result.positions.length, 1));
      return { action: 'skip', reason: 'no_login' };
    }
    if (!result.crcValid) {
      const action = this.deps.crcPolicy[frame.protocol] ?? this.deps.crcPolicy.default;
      m.crcInvalid.inc({ protocol: frame.protocol, action });
      if (action === 'drop') {
        if (result.positions.length) m.dropped.inc({ protocol: frame.protocol, reason: 'crc' }, result.positions.length);
        return { action: 'skip', reason: 'crc' };
      }
    }
    if (!carriesData) return { action: 'ack', ack: result.ack, ...(device ? { device } : {}) };
    if (!device) return this.refuse(frame, uniqueId!, false);

    const records: IncomingRecord[] = this.saneFixes(frame.protocol, uniqueId!, result.positions);
    if (state) {
      // the message's time: the device's own, else the arrival (of the first copy, for a resent alarm or command reply)
      const resendable = state.alarms.length > 0 || typeof state.attributes.result === 'string';
      const time = result.deviceTime ?? (resendable ? await this.deps.alarmIds.arrivalOf(device.id, frame.bytes, frame.receivedAt) : frame.receivedAt);
      records.push({ uniqueId: uniqueId!, state: { ...state, time } });
    }
    try {
      const done = await retryWithBackoff(() => this.publish(records, frame, result.crcValid, rawFrameId), {
        shouldRetry: isRetryable,
        cancelled: () => !connectionOpen(),
        onRetry: (err, n) => {
          m.publishRetries.inc({ protocol: frame.protocol });
          if (n === 1 || n % 20 === 0) this.deps.logger.warn({ err: (err as Error).message, protocol: frame.protocol, uniqueId, attempt: n }, 'bus unavailable: holding the ack and retrying');
        },
        ...this.deps.retry,
      });
      if (!done) return { action: 'abandoned' };
    } catch (err) {
      if (err instanceof AppError && err.code === 'UNKNOWN_DEVICE') return this.refuse(frame, uniqueId!, true);
      this.deps.logger.error({ err, protocol: frame.protocol, uniqueId }, 'frame refused by the intake; not acknowledged');
      m.dropped.inc({ protocol: frame.protocol, reason: 'refused' }, records.length);
      return { action: 'skip', reason: 'refused' };
    }
    return { action: 'ack', ack: result.ack, device };
  }

  private async publish(records: IncomingRecord[], frame: ReceivedFrame, crcValid: boolean, rawFrameId: string): Promise<void> {
    if (records.length) await this.deps.intake.accept(records, { protocol: frame.protocol, crcValid, rawFrameId });
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
      this.deps.logger.info({ protocol: frame.protocol, type, reason, uniqueId, notLogged: last?.suppressed ?? 0 }, 'frame ignored: nothing stored');
    } else {
      last.suppressed++;
    }
    this.deps.logger.debug({ protocol: frame.protocol, type, reason, uniqueId, frame: frame.bytes.toString('hex') }, 'frame ignored');
  }

  /** Fixes that pass the shared sanity check; the rest are counted with their reason and dropped. */
  private saneFixes(protocol: string, uniqueId: string, positions: DecodedPosition[]): IncomingFix[] {
    const now = this.deps.clock.now();
    const out: IncomingFix[] = [];
    for (const position of positions) {
      const reason = this.deps.intake.sanity(position, now);
      if (reason) rejectedPositions.inc({ protocol, reason });
      else out.push({ uniqueId: position.deviceId ?? uniqueId, position });
    }
    return out;
  }

  private async refuse(frame: ReceivedFrame, uniqueId: string, counted: boolean, reply?: Buffer): Promise<FrameVerdict> {
    if (frame.result?.positions.length) m.dropped.inc({ protocol: frame.protocol, reason: 'unknown_device' }, frame.result.positions.length);
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
