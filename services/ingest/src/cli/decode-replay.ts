import type { EventMessage, PositionMessage } from '@corridor/contracts';
import { toPositionMessage } from '../positions/normalize';
import { stateOf, stateRecordAt } from '../positions/state-record';
import { alarmEvent, commandResultEvent } from '../positions/publisher';
import { sanityCheck } from '../positions/sanity';
import { decodeJson, decodeParams, OSMAND_PORT } from '../protocols/osmand';
import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocols/protocol';
import { decodeTeltonikaUdp, TELTONIKA_PORT } from '../protocols/teltonika/index';
import { splitStream } from '../tcp/split-stream';
import { tcpProtocol, tcpProtocols } from '../tcp/tcp-protocols';

/** Protocol names `pnpm decode` accepts: every TCP protocol, Teltonika UDP datagrams, OsmAnd query strings or JSON bodies. */
export const replayProtocols = [...tcpProtocols.map((e) => e.protocol.name), 'teltonika-udp', 'osmand'];

/** Every protocol `pnpm decode` replays with the port ingest serves it on by default, its transport and the variable that moves it. */
export const replayPorts: readonly { protocol: string; port: number; transport: string; variable: string }[] = [
  ...tcpProtocols.map((e) => ({ protocol: e.protocol.name, port: e.protocol.defaultPort, transport: 'tcp', variable: e.portVar })),
  { protocol: 'teltonika-udp', port: TELTONIKA_PORT, transport: 'udp', variable: 'TELTONIKA_PORT' },
  { protocol: 'osmand', port: OSMAND_PORT, transport: 'http', variable: 'OSMAND_PORT' },
];
/** Protocols whose frames are text; the others default to hex lines. */
export const textProtocols = new Set(['h02', 'gps103', 'tk103', 'meitrack', 'queclink', 'wialon', 'osmand']);
/** Placeholder registry id: the replay does not look devices up. */
const NO_DEVICE = 0;
const MAX_FRAME = 64 * 1024;

export interface DecodedFrameOutput {
  kind: DecodeResult['kind'];
  /** Message type as the decoder names it (`0x22`, `codec8`, `V1`, ...); null when it names none. */
  type: string | null;
  uniqueId: string | null;
  crcValid: boolean;
  /** Acknowledgement bytes ingest would send, hex; null when the frame gets none. */
  ack: string | null;
  positions: PositionMessage[];
  events: EventMessage[];
  attributes?: Record<string, unknown>;
  /** Device time of a state record (a report without a fix). */
  deviceTime?: string;
  /** Why an `ignored` frame yields nothing. */
  ignoredReason?: string;
  /** Positions the shared sanity check would refuse (index into positions, reason). */
  rejected?: { index: number; reason: string }[];
}

export interface FrameError {
  error: { reason: string; message: string };
}
type LineBody = DecodedFrameOutput | FrameError | { frames: (DecodedFrameOutput | FrameError)[] };

/** Frames of one message type by what became of them. */
export interface TypeCounts {
  frames: number;
  positions: number;
  states: number;
  results: number;
  alarms: number;
  ignored: number;
}

/** What `pnpm decode` reports at the end (on stderr): counts per message type and decode errors per reason. */
export interface ReplaySummary {
  protocol: string;
  types: Record<string, TypeCounts>;
  errors: Record<string, number>;
}
export type LineOutput = { line: number } & LineBody;

/**
 * One decoder session fed line by line, in order, as a device's connection would be (login first),
 * printing what ingest would make of each frame: positions.v1 and events.v1 messages (device id 0:
 * no registry lookup), the ack bytes, or the decode error with its reason.
 */
export class DecodeReplay {
  private readonly session: ProtocolSession = {};
  private line = 0;
  private readonly types = new Map<string, TypeCounts>();
  private readonly errors = new Map<string, number>();

  constructor(
    private readonly protocol: string,
    private readonly format: 'hex' | 'text',
    private readonly now: () => Date = () => new Date(),
  ) {
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
      return { line, error: this.failed(err) };
    }
  }

  /** Counts per message type and errors per reason so far. */
  summary(): ReplaySummary {
    return {
      protocol: this.protocol,
      types: Object.fromEntries([...this.types].sort(([a], [b]) => a.localeCompare(b))),
      errors: Object.fromEntries(this.errors),
    };
  }

  private failed(err: unknown): { reason: string; message: string } {
    const error = describe(err);
    this.errors.set(error.reason, (this.errors.get(error.reason) ?? 0) + 1);
    return error;
  }

  private count(result: DecodeResult): void {
    const type = result.type ?? '(unnamed)';
    const c = this.types.get(type) ?? { frames: 0, positions: 0, states: 0, results: 0, alarms: 0, ignored: 0 };
    c.frames++;
    c.positions += result.positions.length;
    if (!result.positions.length && result.attributes && Object.keys(result.attributes).length) {
      if (result.kind === 'result') c.results++;
      else c.states++;
    }
    c.alarms += result.events?.length ?? 0;
    if (result.kind === 'ignored') c.ignored++;
    this.types.set(type, c);
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
    if (!split.frames.length && !split.error && this.format === 'text')
      split = splitStream(protocol, Buffer.concat([bytes, Buffer.from('\r\n')]), MAX_FRAME);
    if (split.error && !split.frames.length) throw split.error;
    const outputs: (DecodedFrameOutput | FrameError)[] = split.frames.map((f) => {
      try {
        return this.output(protocol.decode(f, this.session), protocol.name);
      } catch (err) {
        return { error: this.failed(err) };
      }
    });
    if (split.error) outputs.push({ error: this.failed(split.error) });
    else if (split.rest.length) {
      outputs.push({
        error: this.failed(new DecodeError('incomplete_frame', `${split.rest.length} bytes left that do not complete a frame`)),
      });
    }
    if (!outputs.length) throw new DecodeError('incomplete_frame', 'no whole frame on this line');
    return outputs.length === 1 ? outputs[0]! : { frames: outputs };
  }

  private osmand(text: string): DecodedFrameOutput {
    const now = this.now();
    const t = text.trim();
    const fix = t.startsWith('{')
      ? decodeJson(JSON.parse(t) as unknown, now)
      : decodeParams(Object.fromEntries(new URLSearchParams(t.replace(/^.*\?/, ''))), now);
    return this.output(
      { kind: 'position', type: t.startsWith('{') ? 'json' : 'query', positions: [fix.position], deviceId: fix.uniqueId, crcValid: true },
      'osmand',
    );
  }

  private output(result: DecodeResult, protocol: string): DecodedFrameOutput {
    const now = this.now();
    const uniqueId = result.deviceId ?? this.session.deviceId ?? null;
    const rejected: { index: number; reason: string }[] = [];
    const positions = result.positions.map((p, index) => {
      const reason = sanityCheck(p, now);
      if (reason) rejected.push({ index, reason });
      return toPositionMessage(
        p,
        { id: NO_DEVICE, uniqueId: p.deviceId ?? uniqueId ?? '' },
        { protocol, serverTime: now, crcValid: result.crcValid },
      );
    });
    this.count(result);
    // device state without a fix: the state record ingest would publish (here without a last location: at 0, 0)
    const state = stateOf(result);
    if (state) {
      const record = stateRecordAt(null, { ...state, time: result.deviceTime ?? now });
      positions.push(
        toPositionMessage(
          record,
          { id: NO_DEVICE, uniqueId: uniqueId ?? '' },
          { protocol, serverTime: now, crcValid: result.crcValid, stateRecord: true },
        ),
      );
    }
    const events = [
      ...positions.filter((p) => p.alarm).map(alarmEvent),
      ...positions.filter((p) => typeof p.attributes.result === 'string').map(commandResultEvent),
    ];
    const out: DecodedFrameOutput = {
      kind: result.kind,
      type: result.type ?? null,
      uniqueId,
      crcValid: result.crcValid,
      ack: result.ack ? result.ack.toString('hex') : null,
      positions,
      events,
    };
    if (result.attributes && Object.keys(result.attributes).length) out.attributes = result.attributes;
    if (result.deviceTime) out.deviceTime = result.deviceTime.toISOString();
    if (result.ignoredReason) out.ignoredReason = result.ignoredReason;
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
