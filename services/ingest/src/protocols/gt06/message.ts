import { ByteReader } from '../byte-reader';
import type { DecodeResult, ProtocolSession } from '../protocol';
import { Alarms, commandResult, ignoredResult, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import { encodeGt06Ack } from './ack';
import type { GpsBlock } from './blocks';
import type { Gt06Envelope } from './frame';
import { variantOf, type Gt06Variant } from './variant';

export interface Gt06Session extends ProtocolSession {
  /** Offset of the device clock from UTC in minutes, learned from an extended login. */
  gt06TimezoneMinutes?: number;
  /** Server clock for the time-request reply (tests set it; defaults to the system clock). */
  now?: () => Date;
}

/** One GT06 message being decoded: its envelope, variant, a reader over its body and the result builders. */
export class Gt06Message {
  readonly variant: Gt06Variant;
  readonly r: ByteReader;
  readonly type: number;
  readonly label: string;
  readonly tz: number;

  constructor(
    readonly env: Gt06Envelope,
    readonly session: Gt06Session,
    body: Buffer = env.body,
  ) {
    this.type = env.type;
    this.label = `0x${env.type.toString(16).padStart(2, '0')}`;
    this.variant = variantOf(env.extended, env.type, env.declared, env.body, session.deviceId);
    this.r = new ByteReader(body, 'gt06');
    this.tz = typeof session.gt06TimezoneMinutes === 'number' ? session.gt06TimezoneMinutes : 0;
  }

  /** The acknowledgement the device expects: the same protocol number and serial, in the frame's own form. */
  ack(extended = this.env.extended): Buffer {
    return encodeGt06Ack(extended, this.type, this.env.serial);
  }

  /** A fix from the GPS block (state record when the block has no valid date), acknowledged. */
  /** `ack` null: the device expects no reply; omitted: the standard acknowledgement. */
  located(
    gps: GpsBlock | null,
    attributes: Attributes,
    alarms: Alarms,
    ack: Buffer | null = this.ack(),
    deviceTime?: Date | null,
  ): DecodeResult {
    // No date, or the all-zero block firmwares send before their first fix: device state, not a position at 0,0.
    if (!gps?.fixTime || (!gps.valid && gps.latitude === 0 && gps.longitude === 0))
      return this.state(attributes, alarms, ack, deviceTime ?? gps?.fixTime);
    const attrs: Attributes = { ...attributes };
    if (gps.ignition !== null && attrs.ignition === undefined) attrs.ignition = gps.ignition;
    const position = positionOf(
      {
        fixTime: gps.fixTime,
        valid: gps.valid,
        latitude: gps.latitude,
        longitude: gps.longitude,
        speed: gps.speed,
        course: gps.course,
        satellites: gps.satellites,
      },
      attrs,
      alarms,
      this.session.deviceId,
    );
    return positionsResult([position], this.options(ack));
  }

  state(attributes: Attributes, alarms: Alarms, ack: Buffer | null = this.ack(), deviceTime?: Date | null): DecodeResult {
    return stateResult(attributes, alarms, { ...this.options(ack), deviceTime: deviceTime ?? null });
  }

  result(text: string, ack: Buffer | null = null, attributes: Attributes = {}): DecodeResult {
    return commandResult(text, this.options(ack), attributes);
  }

  ignored(reason: string, ack: Buffer | null = null): DecodeResult {
    return ignoredResult(reason, this.options(ack));
  }

  private options(ack: Buffer | null): { type: string; crcValid: boolean; ack?: Buffer } {
    return { type: this.label, crcValid: this.env.crcValid, ...(ack ? { ack } : {}) };
  }
}

export { Alarms };
