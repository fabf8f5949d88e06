import { bcdString, isDigits } from '../bcd';
import { DecodeError, type FrameSplit } from '../protocol';

/**
 * JT/T 808 framing (facts from the JT/T 808-2013 and JT/T 808-2019 standards, section 4, and
 * Traccar's HuabaoFrameDecoder): every message is `7E <header> <body> <check> 7E`, where 7E inside
 * is sent as 7D 02 and 7D as 7D 01, and the check code is the XOR of header and body.
 * Header: message id (WORD), properties (WORD: body length bits 0-9, encryption bits 10-12,
 * sub-package bit 13, 2019 version flag bit 14), [2019: protocol version BYTE], terminal phone number
 * (BCD[6] in 2013, BCD[10] in 2019), serial number (WORD), [sub-package: total WORD, index WORD].
 * A 2013 terminal whose six id bytes are not BCD sends its IMEI as a 48-bit number: its unique id is
 * that number with its Luhn check digit (as Traccar reads it). The vendor location messages 0x5501
 * and 0x5502 have a one-byte serial, and bit 15 of their properties asks for an answer (0x4401).
 */
const JT808_FLAG = 0x7e;
const ESCAPE = 0x7d;
const OPEN = 0x28; // (
const CLOSE = 0x29; // )
const DOLLAR = 0x24;

/**
 * Cuts `7E ... 7E` frames off the front of `buf` (escaped, as received); an empty `7E 7E` drops one
 * flag. Two forms some terminals mix in (Traccar's Jt808FrameDecoder): a `$$` before a frame is
 * skipped, and a text reply `( ... )` (the Jointech JT709 seals on JT/T 808) is a frame of its own.
 */
export function splitJt808Frames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  while (offset < buf.length) {
    if (buf[offset] === DOLLAR && (buf.length - offset < 2 || buf[offset + 1] === DOLLAR)) {
      if (buf.length - offset < 2) break;
      offset += 2;
      continue;
    }
    if (buf[offset] === OPEN) {
      const close = buf.indexOf(CLOSE, offset + 1);
      if (close < 0) {
        if (buf.length - offset >= maxFrame) throw new DecodeError('frame_too_large', `jt808: no ')' within ${maxFrame} bytes`);
        break;
      }
      if (close + 1 - offset > maxFrame)
        throw new DecodeError('frame_too_large', `jt808: text of ${close + 1 - offset} bytes exceeds ${maxFrame}`);
      frames.push(buf.subarray(offset, close + 1));
      offset = close + 1;
      continue;
    }
    if (buf[offset] !== JT808_FLAG) {
      throw new DecodeError('bad_frame', `jt808: expected 7e but got ${buf.subarray(offset, offset + 4).toString('hex')}`);
    }
    const end = buf.indexOf(JT808_FLAG, offset + 1);
    if (end < 0) {
      if (buf.length - offset >= maxFrame) throw new DecodeError('frame_too_large', `jt808: no closing 7e within ${maxFrame} bytes`);
      break;
    }
    if (end === offset + 1) {
      offset = end; // "7E 7E": the first flag closed nothing, the second opens the frame
      continue;
    }
    if (end + 1 - offset > maxFrame)
      throw new DecodeError('frame_too_large', `jt808: frame of ${end + 1 - offset} bytes exceeds ${maxFrame}`);
    frames.push(buf.subarray(offset, end + 1));
    offset = end + 1;
  }
  return { frames, rest: buf.subarray(offset) };
}

/** The bytes between the flags with the 7D escapes undone. */
export function unescapeJt808(frame: Buffer): Buffer {
  const inner = frame.subarray(1, frame.length - 1);
  if (!inner.includes(ESCAPE)) return inner;
  const out = Buffer.alloc(inner.length);
  let n = 0;
  for (let i = 0; i < inner.length; i++) {
    const b = inner[i]!;
    if (b !== ESCAPE) {
      out[n++] = b;
      continue;
    }
    const next = inner[++i];
    if (next === 0x02) out[n++] = JT808_FLAG;
    else if (next === 0x01) out[n++] = ESCAPE;
    else throw new DecodeError('bad_frame', `jt808: 7d followed by ${next === undefined ? 'nothing' : next.toString(16)}`);
  }
  return out.subarray(0, n);
}

/** Wraps header + body + check code in flags, escaping 7E and 7D. */
export function escapeJt808(content: Buffer): Buffer {
  let extra = 0;
  for (const b of content) if (b === JT808_FLAG || b === ESCAPE) extra++;
  const out = Buffer.alloc(content.length + extra + 2);
  let n = 0;
  out[n++] = JT808_FLAG;
  for (const b of content) {
    if (b === JT808_FLAG || b === ESCAPE) {
      out[n++] = ESCAPE;
      out[n++] = b === JT808_FLAG ? 0x02 : 0x01;
    } else out[n++] = b;
  }
  out[n] = JT808_FLAG;
  return out;
}

export function xorCheck(data: Buffer): number {
  let x = 0;
  for (const b of data) x ^= b;
  return x;
}

export interface Jt808Header {
  msgId: number;
  /** 2019 edition (properties bit 14). */
  v2019: boolean;
  /** 2019 protocol version byte (1 for the first 2019 version); 0 in 2013. */
  protocolVersion: number;
  /** The terminal phone number as sent (BCD[6] or BCD[10]), for replies. */
  phone: Buffer;
  /** The device's unique id: the BCD digits (2019: leading zeros dropped down to 12 digits), or the IMEI of a hex id. */
  terminalId: string;
  serial: number;
  /** 0x5501/0x5502: one-byte serial; `answer` when properties bit 15 asks for 0x4401. */
  shortSerial: { answer: boolean } | null;
  encryption: number;
  /** Sub-package fields when properties bit 13 is set. */
  packet: { total: number; index: number } | null;
}

export interface Jt808Message {
  header: Jt808Header;
  body: Buffer;
  crcValid: boolean;
}

/** The vendor location messages (Traccar's MSG_LOCATION_REPORT_2 and _BLIND) with their one-byte serial. */
export const JT808_LOCATION_2 = 0x5501;
export const JT808_LOCATION_BLIND = 0x5502;

/** Luhn check digit of a number given as digits. */
function luhn(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** The BCD phone number (2019: without leading zeros, at least 12 digits), or the IMEI a 2013 hex id holds. */
function terminalIdOf(phone: Buffer, v2019: boolean): string {
  const digits = bcdString(phone, 0, phone.length);
  if (isDigits(digits)) return v2019 ? digits.replace(/^0+/, '').padStart(12, '0') : digits;
  if (v2019) throw new DecodeError('bad_id', `jt808: terminal phone number is not BCD (${digits})`);
  const imei = phone.readUIntBE(0, 6).toString();
  return `${imei}${luhn(imei)}`;
}

/** Unescapes one frame and reads its header; the check code is verified, not enforced. */
export function parseJt808(frame: Buffer): Jt808Message {
  if (frame.length < 2 || frame[0] !== JT808_FLAG || frame[frame.length - 1] !== JT808_FLAG) {
    throw new DecodeError('bad_frame', 'jt808: frame not enclosed in 7e');
  }
  const content = unescapeJt808(frame);
  if (content.length < 13) throw new DecodeError('truncated', `jt808: ${content.length} bytes cannot hold a header and check code`);
  const msgId = content.readUInt16BE(0);
  const props = content.readUInt16BE(2);
  const vendor = msgId === JT808_LOCATION_2 || msgId === JT808_LOCATION_BLIND;
  const v2019 = !vendor && (props & 0x4000) !== 0;
  let at = 4;
  const protocolVersion = v2019 ? content[at++]! : 0;
  const phoneLength = v2019 ? 10 : 6;
  const subpackaged = !vendor && (props & 0x2000) !== 0;
  const serialLength = vendor ? 1 : 2;
  const headerLength = at + phoneLength + serialLength + (subpackaged ? 4 : 0);
  if (content.length < headerLength + 1) throw new DecodeError('truncated', `jt808: header of ${headerLength} bytes does not fit`);
  const phone = content.subarray(at, at + phoneLength);
  const terminalId = terminalIdOf(phone, v2019);
  at += phoneLength;
  const serial = vendor ? content.readUInt8(at) : content.readUInt16BE(at);
  at += serialLength;
  const packet = subpackaged ? { total: content.readUInt16BE(at), index: content.readUInt16BE(at + 2) } : null;
  const check = content[content.length - 1]!;
  return {
    header: {
      msgId,
      v2019,
      protocolVersion,
      phone,
      terminalId,
      serial,
      shortSerial: vendor ? { answer: (props & 0x8000) !== 0 } : null,
      encryption: vendor ? 0 : (props >> 10) & 0x07,
      packet,
    },
    body: content.subarray(headerLength, content.length - 1),
    crcValid: xorCheck(content.subarray(0, content.length - 1)) === check,
  };
}

/** What a server message needs from the terminal's header to address it. */
export type Jt808Address = Pick<Jt808Header, 'v2019' | 'protocolVersion' | 'phone'>;

/** A platform message to the terminal: header (same edition and phone number), body, check code, escaped and framed. */
export function encodeJt808(msgId: number, to: Jt808Address, serial: number, body: Buffer, shortSerial = false): Buffer {
  if (body.length > 0x3ff) throw new DecodeError('bad_command', `jt808: body of ${body.length} bytes exceeds one packet`);
  const headerLength = 2 + 2 + (to.v2019 ? 1 : 0) + to.phone.length + (shortSerial ? 1 : 2);
  const content = Buffer.alloc(headerLength + body.length + 1);
  content.writeUInt16BE(msgId, 0);
  content.writeUInt16BE(body.length | (to.v2019 ? 0x4000 : 0), 2);
  let at = 4;
  if (to.v2019) content[at++] = to.protocolVersion;
  to.phone.copy(content, at);
  at += to.phone.length;
  if (shortSerial) content.writeUInt8(serial & 0xff, at);
  else content.writeUInt16BE(serial & 0xffff, at);
  body.copy(content, headerLength);
  content[content.length - 1] = xorCheck(content.subarray(0, content.length - 1));
  return escapeJt808(content);
}
