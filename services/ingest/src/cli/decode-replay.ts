import type { EventMessage, PositionMessage } from '@corridor/contracts';
import { toPositionMessage } from '../positions/normalize';
import { stateOf, stateRecordAt } from '../positions/state-record';
import { alarmEvent } from '../positions/publisher';
import { sanityCheck } from '../positions/sanity';
import { decodeJson, decodeParams } from '../protocols/osmand';
import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocols/protocol';
import { decodeTeltonikaUdp } from '../protocols/teltonika/index';
import { splitStream } from '../tcp/split-stream';
import { tcpProtocol, tcpProtocols } from '../tcp/tcp-protocols';

/** Protocol names `pnpm decode` accepts: every TCP protocol, Teltonika UDP datagrams, OsmAnd query strings or JSON bodies. */
export const replayProtocols = [...tcpProtocols.map((e) => e.protocol.name), 'teltonika-udp', 'osmand'];
/** Protocols whose frames are text; the others default to hex lines. */
export const textProtocols = new Set(['h02', 'gps103', 'tk103', 'meitrack', 'osmand']);
/** Placeholder registry id: the replay does not look devices up. */
const NO_DEVICE = 0;
const MAX_FRAME = 64 * 1024;

export interface DecodedFrameOutput {
  kind: DecodeResult['kind'];
  uniqueId: string | null;
  crcValid: boolean;
  /** Acknowledgement bytes ingest would send, hex; null when the frame gets none. */
  ack: string | null;
  positions: PositionMessage[];
  events: EventMessage[];
  attributes?: Record<string, unknown>;
  /** Positions the shared sanity check would refuse (index into positions, reason). */
  rejected?: { index: number; reason: string }[];
}

export interface FrameError {
  error: { reason: string; message: string };
}
type LineBody = DecodedFrameOutput | FrameError | { frames: (DecodedFrameOutput | FrameError)[] };
export type LineOutput = { line: number } & LineBody;

/**
 * One decoder session fed line by line, in order, as a device's connection would be (login first),
 * printing what ingest would make of each frame: positions.v1 and events.v1 messages (device id 0:
 * no registry lookup), the ack bytes, or the decode error with its reason.
 */
export class DecodeReplay {
  private readonly session: ProtocolSession = {};
  private line = 0;

  constructor(private readonly protocol: string, private readonly format: 'hex' | 'text', private readonly now: () => Date = () => new Date()) {
    if (!replayProtocols.includes(protocol)) throw new RangeError(`unknown protocol ${protocol}; one of ${replayProtocols.join(', ')}`);
  }

  /** Decodes one input line (blank lines are skipped: undefined). */
  next(raw: string): LineOutput | undefined {
    const text = raw.replace(/\r?\n$/, '');
    if (!text.trim()) return undefined;
    const line = ++this.line;
    try {
      const bytes = this.bytesOf(text);
      if (this.protocol === 'osmand') return { line, ...this.osmand(bytes.toString('utf8')) };
      if (this.protocol === 'teltonika-udp') return { line, ...this.output(decodeTeltonikaUdp(bytes), 'teltonika') };
      return { line, ...this.stream(bytes) };
    } catch (err) {
      return { line, error: describe(err) };
    }
  }

  /** Hex (spaces allowed), text, or a raw_frames row as JSON (`frame_hex`) exported from the archive. */
  private bytesOf(text: string): Buffer {
    const trimmed = text.trim();
    if (trimmed.startsWith('{') && this.protocol !== 'osmand') {
      const row = JSON.parse(trimmed) as { frame_hex?: unknown };
      if (typeof row.frame_hex !== 'string') throw new DecodeError('bad_input', 'JSON line without frame_hex (expected a raw_frames row)');
      return hexBytes(row.frame_hex);
    }
    return this.format === 'hex' ? hexBytes(trimmed) : Buffer.from(text, 'latin1');
  }

  private stream(bytes: Buffer): LineBody {
    const protocol = tcpProtocol(this.protocol)!.protocol;
    let split = splitStream(protocol, bytes, MAX_FRAME);
    if (!split.frames.length && !split.error && this.format === 'text') split = splitStream(protocol, Buffer.concat([bytes, Buffer.from('\r\n')]), MAX_FRAME);
    if (split.error && !split.frames.length) throw split.error;
    const outputs: (DecodedFrameOutput | FrameError)[] = split.frames.map((f) => {
      try {
        return this.output(protocol.decode(f, this.session), protocol.name);
      } catch (err) {
        return { error: describe(err) };
      }
    });
    if (split.error) outputs.push({ error: describe(split.error) });
    else if (split.rest.length) outputs.push({ error: { reason: 'incomplete_frame', message: `${split.rest.length} bytes left that do not complete a frame` } });
    if (!outputs.length) throw new DecodeError('incomplete_frame', 'no whole frame on this line');
    return outputs.length === 1 ? outputs[0]! : { frames: outputs };
  }

  private osmand(text: string): DecodedFrameOutput {
    const now = this.now();
    const t = text.trim();
    const fix = t.startsWith('{') ? decodeJson(JSON.parse(t) as unknown, now) : decodeParams(Object.fromEntries(new URLSearchParams(t.replace(/^.*\?/, ''))), now);
    return this.output({ kind: 'position', positions: [fix.position], deviceId: fix.uniqueId, crcValid: true }, 'osmand');
  }

  private output(result: DecodeResult, protocol: string): DecodedFrameOutput {
    const now = this.now();
    const uniqueId = result.deviceId ?? this.session.deviceId ?? null;
    const rejected: { index: number; reason: string }[] = [];
    const positions = result.positions.map((p, index) => {
      const reason = sanityCheck(p, now);
      if (reason) rejected.push({ index, reason });
      return toPositionMessage(p, { id: NO_DEVICE, uniqueId: p.deviceId ?? uniqueId ?? '' }, { protocol, serverTime: now, crcValid: result.crcValid });
    });
    // device state without a fix: the state record ingest would publish (here without a last location: at 0, 0)
    const state = stateOf(result);
    if (state) {
      const record = stateRecordAt(null, { ...state, time: result.deviceTime ?? now });
      positions.push(toPositionMessage(record, { id: NO_DEVICE, uniqueId: uniqueId ?? '' }, { protocol, serverTime: now, crcValid: result.crcValid, stateRecord: true }));
    }
    const events = positions.filter((p) => p.alarm).map(alarmEvent);
    const out: DecodedFrameOutput = {
      kind: result.kind,
      uniqueId,
      crcValid: result.crcValid,
      ack: result.ack ? result.ack.toString('hex') : null,
      positions,
      events,
    };
    if (result.attributes && Object.keys(result.attributes).length) out.attributes = result.attributes;
    if (rejected.length) out.rejected = rejected;
    return out;
  }
}

function hexBytes(text: string): Buffer {
  const clean = text.replace(/\s+/g, '').replace(/^0x/i, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(clean)) throw new DecodeError('bad_input', 'not an even number of hex digits');
  return Buffer.from(clean, 'hex');
}

function describe(err: unknown): { reason: string; message: string } {
  if (err instanceof DecodeError) return { reason: err.reason, message: err.message };
  if (err instanceof SyntaxError) return { reason: 'bad_input', message: err.message };
  return { reason: 'malformed', message: err instanceof Error ? err.message : String(err) };
}
