import { crc16X25 } from '../crc16';
import { DecodeError, type FrameSplit } from '../protocol';

/**
 * GT06 / Concox framing (facts from the Concox GT06 protocol document and Traccar's
 * Gt06FrameDecoder): `78 78 <len:1> <type> ... <serial:2> <crc:2> 0D 0A` or, for extended
 * packets, `79 79 <len:2> <type> ...`. The length counts the bytes from the protocol number to the
 * CRC inclusive. Some firmwares miscount by two (status packets with a language word) or send a
 * zero length (Wi-Fi packets), so the tail marker decides in those cases.
 */
export const GT06_HEADER = 0x7878;
export const GT06_HEADER_EXTENDED = 0x7979;
const TAIL_CR = 0x0d;
const TAIL_LF = 0x0a;

function hasTailAt(buf: Buffer, end: number): boolean {
  return end >= 2 && end <= buf.length && buf[end - 2] === TAIL_CR && buf[end - 1] === TAIL_LF;
}

/** Index just after the first CR LF at or after `from`, or -1 when none is buffered yet. */
function endOfFirstTail(buf: Buffer, from: number): number {
  const at = buf.indexOf(TAIL_CR_LF, from);
  return at < 0 ? -1 : at + 2;
}
const TAIL_CR_LF = Buffer.from([TAIL_CR, TAIL_LF]);

/**
 * Length of the frame at the start of `buf`, 0 when more bytes are needed. The decision depends
 * only on bytes that are already fixed in the stream, so any chunking yields the same frames.
 */
function frameLength(buf: Buffer, maxFrame: number): number {
  if (buf.length < 2) return 0;
  const header = buf.readUInt16BE(0);
  if (header !== GT06_HEADER && header !== GT06_HEADER_EXTENDED) {
    throw new DecodeError('bad_frame', `gt06: expected 7878 or 7979 header, got ${buf.subarray(0, 2).toString('hex')}`);
  }
  const extended = header === GT06_HEADER_EXTENDED;
  const lengthBytes = extended ? 2 : 1;
  if (buf.length < 2 + lengthBytes) return 0;
  const declared = extended ? buf.readUInt16BE(2) : (buf[2] ?? 0);
  const byLength = 2 + lengthBytes + declared + 2;

  if (declared > 0) {
    if (byLength > maxFrame) throw new DecodeError('frame_too_large', `gt06: frame of ${byLength} bytes exceeds ${maxFrame}`);
    if (buf.length < byLength) return 0;
    if (hasTailAt(buf, byLength)) return byLength;
    // Length miscounted by two (e.g. status packets carrying a language word).
    if (buf.length >= byLength + 2 && byLength + 2 <= maxFrame && hasTailAt(buf, byLength + 2)) return byLength + 2;
  }
  // Zero or wrong length (e.g. 0x10 packets without serial/CRC): once the declared length is
  // buffered, the first CR LF after the header ends the frame.
  const end = endOfFirstTail(buf, 2 + lengthBytes);
  if (end > 0 && end <= maxFrame) return end;
  if (end > maxFrame || buf.length >= maxFrame) {
    throw new DecodeError('frame_too_large', `gt06: no frame end within ${maxFrame} bytes`);
  }
  return 0;
}

/** Cuts whole frames off the front of `buf`; never parses fields beyond the length. */
export function splitGt06Frames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const rest = buf.subarray(offset);
    const length = frameLength(rest, maxFrame);
    if (length === 0) return { frames, rest };
    frames.push(rest.subarray(0, length));
    offset += length;
  }
}

/** The parts of a GT06 frame every message decoder needs. */
export interface Gt06Envelope {
  extended: boolean;
  type: number;
  /** Bytes between the protocol number and the serial number. */
  body: Buffer;
  serial: number;
  crcValid: boolean;
  /** Everything between the protocol number and the 0D0A tail (for packets sent without serial/CRC). */
  payload: Buffer;
  /** True when the length field is zero (Wi-Fi packets) or the frame has no room for them: no serial or CRC to read. */
  bare: boolean;
  /** The length field as sent (protocol number through CRC; some firmwares miscount it). */
  declared: number;
}

export function parseGt06Envelope(frame: Buffer): Gt06Envelope {
  if (frame.length < 2) throw new DecodeError('bad_frame', 'gt06: frame shorter than its header');
  const header = frame.readUInt16BE(0);
  if (header !== GT06_HEADER && header !== GT06_HEADER_EXTENDED) {
    throw new DecodeError('bad_frame', 'gt06: missing 7878/7979 header');
  }
  const extended = header === GT06_HEADER_EXTENDED;
  const typeIndex = extended ? 4 : 3;
  if (frame.length < typeIndex + 3 || !hasTailAt(frame, frame.length)) {
    throw new DecodeError('bad_frame', 'gt06: frame too short or missing 0D0A tail');
  }
  const type = frame[typeIndex] ?? 0;
  const declared = extended ? frame.readUInt16BE(2) : (frame[2] ?? 0);
  const payload = frame.subarray(typeIndex + 1, frame.length - 2);
  // No length, or a frame too short to hold a serial and CRC: the payload is all there is.
  if (declared === 0 || frame.length < typeIndex + 1 + 6)
    return { extended, type, body: payload, payload, serial: 0, crcValid: false, bare: true, declared };
  const end = frame.length;
  const crc = frame.readUInt16BE(end - 4);
  return {
    extended,
    type,
    body: frame.subarray(typeIndex + 1, end - 6),
    serial: frame.readUInt16BE(end - 6),
    crcValid: crc16X25(frame.subarray(2, end - 4)) === crc,
    payload,
    bare: false,
    declared,
  };
}
