/**
 * The shape every device protocol module implements. Decoders are pure: they take bytes and a
 * per-connection session and return normalized positions plus the acknowledgement bytes to send.
 * They never touch sockets, so tests replay captured frames directly.
 */

/** Normalized fix; the caller fills id/serverTime/rawFrameId and validates into positions.v1. */
export interface DecodedPosition {
  deviceId?: string;
  fixTime: Date;
  valid: boolean;
  latitude: number;
  longitude: number;
  /** knots */
  speed: number;
  course: number;
  altitude?: number | null;
  satellites?: number | null;
  hdop?: number | null;
  ignition?: boolean | null;
  /** metres */
  odometer?: number | null;
  power?: number | null;
  battery?: number | null;
  /** Traccar alarm names: sos, powerCut, vibration, tampering, removing, lowBattery, overspeed, ... */
  alarm?: string | null;
  attributes: Record<string, string | number | boolean | null>;
}

export interface DecodeResult {
  positions: DecodedPosition[];
  ack?: Buffer;
  /** learned at login */
  deviceId?: string;
  /**
   * `state`: device state without a fix (status, LBS/Wi-Fi, information packets) in `attributes`;
   * `result`: a command reply, its text in `attributes.result` (Traccar's key).
   */
  kind: 'login' | 'heartbeat' | 'position' | 'alarm' | 'state' | 'result' | 'ignored';
  crcValid: boolean;
  events?: { alarm: string }[];
  /** Device state reported without a fix (heartbeat/status/LBS/command replies), under Traccar's keys and units; the caller may merge it into the latest position. */
  attributes?: Record<string, string | number | boolean | null>;
  /** Time the device stamped a report that has no fix (LBS, Wi-Fi, alarm without GPS), when it carries one. */
  deviceTime?: Date;
  /** Message type, one of a small fixed set per protocol (`0x22`, `codec8`, `V1`, `AAA`, ...): metrics label and `pnpm decode` summary. */
  type?: string;
  /** With kind `ignored`: why the frame yields nothing (counted per protocol and type, and logged). */
  ignoredReason?: string;
  /**
   * What the frame claims about the device's identity beyond its id, for the identification layer
   * (services/ingest/src/frames/identity.ts) to decide: decoders never issue nor check codes. The
   * decoder leaves `ack` unset and `answer` builds the reply once the decision is made.
   */
  identity?: IdentityClaim;
}

/**
 * A registration the platform answers with an authentication code it issues (JT/T 808 0x0100 →
 * 0x8100), or a code presented to prove the device registered before (JT/T 808 0x0102).
 */
export type IdentityClaim =
  | { kind: 'register'; answer(outcome: { code: string } | { refused: 'registered' | 'unknown' }): Buffer }
  | { kind: 'authenticate'; code: string; answer(accepted: boolean): Buffer };

/** Per-connection state (e.g. IMEI learned at login, codec). */
export interface ProtocolSession {
  deviceId?: string;
  [k: string]: unknown;
}

/** splitFrames never parses fields beyond what it needs to find frame boundaries. */
export interface FrameSplit {
  frames: Buffer[];
  rest: Buffer;
}

export class DecodeError extends Error {
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'DecodeError';
  }
}

export interface Protocol {
  name: string;
  defaultPort: number;
  transport: ('tcp' | 'udp')[];
  splitFrames(buf: Buffer, maxFrame: number): FrameSplit;
  decode(frame: Buffer, session: ProtocolSession): DecodeResult;
  encodeCommand?(cmd: { type: string; attributes?: Record<string, unknown> }, session: ProtocolSession): Buffer;
}
