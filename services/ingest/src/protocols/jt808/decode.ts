import { DecodeError, type DecodedPosition, type DecodeResult } from '../protocol';
import { encodeJt808GeneralResponse, encodeJt808RegisterResponse, JT808_RESULT, nextJt808Serial } from './ack';
import type { Jt808Session } from './commands';
import { parseJt808, type Jt808Header } from './frame';
import { decodeJt808Location, JT808_BASIC_LENGTH } from './location';
import { decodeOtherJt808 } from './other-messages';
import { decodeJt808Text } from './text';

/**
 * JT/T 808 terminal messages (2013 and 2019 editions; ids from the standards, section 8):
 * - 0x0100 registration → login with a `register` identity claim: the identification layer
 *   (frames/identity.ts) issues the authentication code or refuses, and the claim builds the 0x8100;
 * - 0x0102 authentication → login with an `authenticate` claim carrying the code, answered by 0x8001
 *   (result 0 when the identification layer accepts the code, 1 when not);
 * - 0x0002 heartbeat → heartbeat, 0x8001;
 * - 0x0200 location report → one position (or a state record when its time is not a date), 0x8001;
 * - 0x0704 batch upload (type 1: blind-area re-upload → `archive`) → positions, 0x8001;
 * - 0x0001 terminal general response → the result of a command sent with 0x8105/0x8300;
 * - 0x0107, 0x0210, 0x0701, 0x0702, 0x0900, 0x1007, 0x1300, 0x2070, 0x5501/0x5502, 0x6006 and the
 *   JT709's `( ... )` text frames: other-messages.ts, text.ts;
 * - 0x0003 logout → acknowledged, nothing stored; sub-packaged and encrypted messages, and every
 *   other id, are refused with a reason (0x8001 result 0 for sub-packages so the terminal goes on,
 *   result 3 "not supported" for the rest).
 */
export const JT808_MSG = {
  terminalResponse: 0x0001,
  heartbeat: 0x0002,
  logout: 0x0003,
  register: 0x0100,
  auth: 0x0102,
  location: 0x0200,
  batch: 0x0704,
} as const;

const RESULT_NAMES = ['success', 'failure', 'message error', 'not supported', 'alarm confirmed'];

export const jt808Type = (msgId: number): string => `0x${msgId.toString(16).padStart(4, '0')}`;

interface Context {
  header: Jt808Header;
  body: Buffer;
  session: Jt808Session;
  base: Pick<DecodeResult, 'crcValid' | 'deviceId' | 'type'>;
}

function ack(c: Context, result: number = JT808_RESULT.ok): Buffer {
  return encodeJt808GeneralResponse(c.header, nextJt808Serial(c.session), result);
}

function ignored(c: Context, reason: string, reply?: Buffer): DecodeResult {
  return { ...c.base, kind: 'ignored', positions: [], ignoredReason: reason, ...(reply ? { ack: reply } : {}) };
}

/** Positions (an alarm on any makes it an alarm frame), or the state record of a report without a usable time. */
function locationResult(
  c: Context,
  positions: DecodedPosition[],
  state: DecodedPosition['attributes'] | null,
  alarms: string[],
): DecodeResult {
  const events = alarms.map((alarm) => ({ alarm }));
  const kind = events.length ? 'alarm' : positions.length ? 'position' : 'state';
  const result: DecodeResult = { ...c.base, kind, positions, ack: ack(c) };
  if (events.length) result.events = events;
  if (!positions.length && state) result.attributes = events.length ? { ...state, alarm: alarms.join(',') } : state;
  return result;
}

function decodeLocation(c: Context): DecodeResult {
  if (c.body.length < JT808_BASIC_LENGTH) throw new DecodeError('truncated', `jt808: location body of ${c.body.length} bytes`);
  const r = decodeJt808Location(c.body, c.header.terminalId);
  return r.position ? locationResult(c, [r.position], null, r.alarms) : locationResult(c, [], r.attributes, r.alarms);
}

/** 0x0704: count WORD, type BYTE (0 normal, 1 blind-area re-upload), then `length WORD, location` items. */
function decodeBatch(c: Context): DecodeResult {
  const count = c.body.readUInt16BE(0);
  const archive = c.body.readUInt8(2) === 1;
  const positions: DecodedPosition[] = [];
  const alarms: string[] = [];
  let at = 3;
  for (let i = 0; i < count && at + 2 <= c.body.length; i++) {
    const length = c.body.readUInt16BE(at);
    const end = at + 2 + length;
    if (length < JT808_BASIC_LENGTH || end > c.body.length)
      throw new DecodeError('truncated', `jt808: batch item ${i} of ${length} bytes does not fit`);
    const r = decodeJt808Location(c.body.subarray(at + 2, end), c.header.terminalId);
    if (r.position) {
      if (archive) r.position.attributes.archive = true;
      positions.push(r.position);
      for (const a of r.alarms) if (!alarms.includes(a)) alarms.push(a);
    }
    at = end;
  }
  if (!positions.length) return ignored(c, 'batch without a dated location', ack(c));
  return locationResult(c, positions, null, alarms);
}

/** 0x0001: reply serial WORD, reply message id WORD, result BYTE. */
function decodeTerminalResponse(c: Context): DecodeResult {
  const replyId = c.body.readUInt16BE(2);
  const code = c.body.readUInt8(4);
  const text = `${jt808Type(replyId)} ${RESULT_NAMES[code] ?? `result ${code}`}`;
  return { ...c.base, kind: 'result', positions: [], attributes: { result: text } };
}

/**
 * The code of a 0x0102: 2013, the whole body (STRING); 2019, length BYTE, code STRING, then the IMEI
 * BYTE[15] and software version BYTE[20] (JT/T 808-2019 section 8.6). Trailing NULs are padding.
 */
function authenticationCode(c: Context): string {
  const raw = c.header.v2019 ? c.body.subarray(1, 1 + c.body.readUInt8(0)) : c.body;
  if (c.header.v2019 && raw.length < c.body.readUInt8(0))
    throw new DecodeError('truncated', `jt808: authentication code of ${c.body.readUInt8(0)} bytes does not fit`);
  return raw.toString('latin1').replace(/\0+$/, '');
}

function decodeMessage(c: Context): DecodeResult {
  const { header } = c;
  if (header.encryption !== 0) return ignored(c, 'encrypted message body', ack(c, JT808_RESULT.notSupported));
  if (header.packet) return ignored(c, 'sub-packaged message (not reassembled)', ack(c));
  switch (header.msgId) {
    case JT808_MSG.register: {
      const serial = nextJt808Serial(c.session);
      return {
        ...c.base,
        kind: 'login',
        positions: [],
        identity: { kind: 'register', answer: (outcome) => encodeJt808RegisterResponse(header, serial, outcome) },
      };
    }
    case JT808_MSG.auth: {
      const serial = nextJt808Serial(c.session);
      const code = authenticationCode(c);
      return {
        ...c.base,
        kind: 'login',
        positions: [],
        identity: {
          kind: 'authenticate',
          code,
          answer: (accepted) => encodeJt808GeneralResponse(header, serial, accepted ? JT808_RESULT.ok : JT808_RESULT.failure),
        },
      };
    }
    case JT808_MSG.heartbeat:
      return { ...c.base, kind: 'heartbeat', positions: [], ack: ack(c) };
    case JT808_MSG.location:
      return decodeLocation(c);
    case JT808_MSG.batch:
      return decodeBatch(c);
    case JT808_MSG.terminalResponse:
      return decodeTerminalResponse(c);
    case JT808_MSG.logout:
      return ignored(c, 'terminal logout', ack(c));
    default:
      return decodeOtherJt808(c, () => ack(c)) ?? ignored(c, 'message type not supported', ack(c, JT808_RESULT.notSupported));
  }
}

/** Decodes one whole frame (as cut by splitJt808Frames). Throws only DecodeError. */
export function decodeJt808(frame: Buffer, session: Jt808Session): DecodeResult {
  if (frame[0] === 0x28) return decodeJt808Text(frame, session);
  const { header, body, crcValid } = parseJt808(frame);
  session.deviceId = header.terminalId;
  session.jt808 = { v2019: header.v2019, protocolVersion: header.protocolVersion, phone: Buffer.from(header.phone) };
  const c: Context = { header, body, session, base: { crcValid, deviceId: header.terminalId, type: jt808Type(header.msgId) } };
  try {
    return decodeMessage(c);
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    const reason = err instanceof RangeError ? 'truncated' : 'malformed';
    throw new DecodeError(reason, `jt808: message ${jt808Type(header.msgId)}: ${(err as Error).message}`);
  }
}
