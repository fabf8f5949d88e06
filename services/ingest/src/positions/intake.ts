import { MAX_POSITION_DEVICE_ID, type PositionMessage } from '@corridor/contracts';
import { AppError, counter, type Bus, type Cache, type Clock, type Logger } from '@corridor/platform';
import type { DecodedPosition } from '../protocols/protocol';
import type { DeviceRegistry } from '../devices/device-registry';
import { unknownDevices } from '../devices/device-registry';
import { toPositionMessage, type KnownDevice } from './normalize';
import { publishPositions } from './publisher';
import { MAX_FUTURE_MS, rejectedPositions, sanityCheck, type SanityReason } from './sanity';
import type { ComputedAttributes } from './computed-attributes';
import { DeviceLocks } from './device-locks';
import { stateRecordAt } from './state-record';
import { track, type TrackState } from './track';
import { TrackStore } from './track-store';

const received = counter('ingest_positions_received_total', 'Decoded positions received, before checks', ['protocol']);
const stateRecords = counter('ingest_state_records_total', 'State records made from status, heartbeat and cell-only messages', [
  'protocol',
]);
const aheadFixes = counter(
  'ingest_clock_ahead_total',
  'Positions dated more than FIX_FUTURE_SKEW_SECONDS ahead of the server clock: kept, never the latest',
  ['protocol'],
);

/** The device frame a record came from, when a call carries records of several frames (a connection's batch). */
export interface RecordSource {
  crcValid: boolean;
  rawFrameId: string | null;
}

export interface IncomingFix {
  uniqueId: string;
  position: DecodedPosition;
  /** overrides the call's meta.crcValid and meta.rawFrameId */
  source?: RecordSource;
}

/** Device state reported without a fix: kept as a state record at the device's last known location. */
export interface IncomingState {
  uniqueId: string;
  /** overrides the call's meta.crcValid and meta.rawFrameId */
  source?: RecordSource;
  state: {
    /** under Traccar's keys and units */
    attributes: DecodedPosition['attributes'];
    /** alarms reported with it (Traccar alarm names); the record's `alarm` joins them */
    alarms: string[];
    /** the message's time: the device's when it stamps one, else the arrival */
    time: Date;
  };
}

export type IncomingRecord = IncomingFix | IncomingState;
const isState = (r: IncomingRecord): r is IncomingState => 'state' in r;

export interface IntakeMeta {
  protocol: string;
  crcValid?: boolean;
  rawFrameId?: string | null;
}

export interface IntakeOptions {
  /** knots: a fix without a `motion` attribute is in motion above this (Traccar event.motion.speedThreshold). */
  motionThreshold?: number;
  /** ms a fix may be dated ahead of the server clock (FIX_MAX_FUTURE_SECONDS); default sanity.ts's MAX_FUTURE_MS. */
  maxFutureMs?: number;
  /** ms past which a fix ahead of the server clock is marked `clockAhead` and never becomes the latest (FIX_FUTURE_SKEW_SECONDS); default 2 min. */
  futureSkewMs?: number;
}

/** FIX_FUTURE_SKEW_SECONDS' default. */
const FUTURE_SKEW_MS = 120_000;

/**
 * The one path from decoded fixes and device state to the bus, shared by every protocol and the
 * JSON API: identify the device, run the sanity check, normalize, place state records at the last
 * known location, add the server-side accumulators (track.ts), apply computed attributes, publish,
 * and only then return. All-or-nothing: if any record of the call is refused, nothing is published
 * and the error lists each. Records of one device are handled one call at a time in this instance
 * (its track state is read, advanced and saved after the publish; the save is not waited for, see
 * TrackStore).
 */
export class PositionIntake {
  private readonly locks = new DeviceLocks();
  private readonly tracks: TrackStore;
  private readonly motionThreshold: number;
  private readonly maxFutureMs: number;
  private readonly futureSkewMs: number;

  constructor(
    private readonly deps: {
      bus: Bus;
      registry: DeviceRegistry;
      cache: Cache;
      clock: Clock;
      logger: Logger;
      computed?: ComputedAttributes;
    },
    opts: IntakeOptions = {},
  ) {
    this.tracks = new TrackStore(deps.cache, deps.logger.child({ component: 'track-store' }));
    this.motionThreshold = opts.motionThreshold ?? 0.01;
    this.maxFutureMs = opts.maxFutureMs ?? MAX_FUTURE_MS;
    this.futureSkewMs = opts.futureSkewMs ?? FUTURE_SKEW_MS;
  }

  /** The shared sanity check with this intake's settings (null = sane): the frame handler drops fixes by it before acceptance. */
  sanity(p: DecodedPosition, now: Date): SanityReason | null {
    return sanityCheck(p, now, this.maxFutureMs);
  }

  async accept(records: IncomingRecord[], meta: IntakeMeta): Promise<PositionMessage[]> {
    const now = this.deps.clock.now();
    await this.deps.computed?.refresh();
    received.inc({ protocol: meta.protocol }, records.length);
    const devices: KnownDevice[] = [];
    const unknown: { index: number; uniqueId: string }[] = [];
    const insane: { index: number; uniqueId: string; reason: SanityReason | 'device_id_range' }[] = [];
    for (const [index, r] of records.entries()) {
      const device = await this.deps.registry.lookup(r.uniqueId);
      if (!device) {
        unknown.push({ index, uniqueId: r.uniqueId });
        continue;
      }
      // position ids hold device ids up to 2^20 - 1 (position-id.ts): a device beyond cannot store positions
      const reason =
        device.id > MAX_POSITION_DEVICE_ID ? 'device_id_range' : this.sanity(isState(r) ? stateRecordAt(null, r.state) : r.position, now);
      if (reason) insane.push({ index, uniqueId: r.uniqueId, reason });
      devices[index] = device;
    }
    if (unknown.length) {
      unknownDevices.inc({ protocol: meta.protocol }, unknown.length);
      this.deps.logger.warn({ protocol: meta.protocol, unknown: unknown.slice(0, 5) }, 'positions from unknown devices rejected');
      throw new AppError(
        'UNKNOWN_DEVICE',
        `Unknown device${unknown.length > 1 ? 's' : ''}: ${[...new Set(unknown.map((u) => u.uniqueId))].slice(0, 5).join(', ')}`,
        { unknown },
      );
    }
    if (insane.length) {
      for (const i of insane) rejectedPositions.inc({ protocol: meta.protocol, reason: i.reason });
      throw new AppError('VALIDATION_FAILED', `Position failed the sanity check (${insane[0]!.reason})`, { rejected: insane });
    }
    const ids = [...new Set(devices.map((d) => d.id))];
    return this.locks.with(ids, async () => {
      const { states, overrides } = await this.tracks.load(ids);
      const next = new Map<number, TrackState>();
      const out: PositionMessage[] = [];
      for (const [index, r] of records.entries()) {
        const device = devices[index]!;
        const state = next.get(device.id) ?? states.get(device.id);
        const decoded = isState(r) ? stateRecordAt(state?.fix ?? null, r.state) : r.position;
        if (isState(r)) stateRecords.inc({ protocol: meta.protocol });
        const message = toPositionMessage(decoded, device, {
          protocol: meta.protocol,
          serverTime: now,
          crcValid: r.source?.crcValid ?? meta.crcValid ?? true,
          rawFrameId: r.source ? r.source.rawFrameId : (meta.rawFrameId ?? null),
          stateRecord: isState(r),
        });
        // a device clock running ahead: the fix is kept, marked, and never becomes the latest (track, position store, device state)
        const ahead = Date.parse(message.fixTime) - now.getTime();
        if (ahead > this.futureSkewMs) {
          message.attributes = { ...message.attributes, clockAhead: Math.round(ahead / 1000) };
          aheadFixes.inc({ protocol: meta.protocol });
        }
        const tracked = track(state, message, { motionThreshold: this.motionThreshold, override: overrides.get(device.id) });
        if (tracked.state) next.set(device.id, tracked.state);
        out.push(
          this.deps.computed ? this.deps.computed.apply(tracked.position, this.deps.registry.companyOf(device.uniqueId)) : tracked.position,
        );
      }
      await publishPositions(this.deps.bus, out);
      this.tracks.save(next);
      return out;
    });
  }

  /** The track states saved so far are written (before the cache closes). */
  settled(): Promise<void> {
    return this.tracks.settled();
  }
}
