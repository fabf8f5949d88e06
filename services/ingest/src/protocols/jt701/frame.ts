import { DecodeError, type FrameSplit } from '../protocol';

/**
 * Jointech JT600/JT701/JT709 framing (facts from Jointech's "Protocol of JT701 Product" and
 * Traccar's Jt600FrameDecoder): binary reports start with `$` (0x24) and carry a data length WORD at
 * offset 7, or at offset 8 in the long format (the JT701/JT709 seals: the id's first digit is 7 or
 * more, and a protocol version byte follows it); the frame is that length + 10 bytes. Text messages
 * are `( ... )`.
 */
const DOLLAR = 0x24;
const OPEN = 0x28;
const CLOSE = 0x29;
const HEADER = 10;

/** Long (seal) format: the high nibble of the first id byte is 7 or more. */
export function isLongFormat(firstIdByte: number): boolean {
  return firstIdByte >> 4 >= 7;
}

function frameLength(buf: Buffer, at: number, maxFrame: number): number {
  const first = buf[at];
  if (first === OPEN) {
    const close = buf.indexOf(CLOSE, at + 1);
    if (close >= 0) {
      if (close + 1 - at > maxFrame) throw new DecodeError('frame_too_large', `jt701: text of ${close + 1 - at} bytes exceeds ${maxFrame}`);
      return close + 1 - at;
    }
    if (buf.length - at >= maxFrame) throw new DecodeError('frame_too_large', `jt701: no ')' within ${maxFrame} bytes`);
    return 0;
  }
  if (first !== DOLLAR) throw new DecodeError('bad_frame', `jt701: expected '$' or '(' but got 0x${first?.toString(16)}`);
  if (buf.length - at < HEADER) return 0;
  const long = isLongFormat(buf[at + 1]!);
  const total = buf.readUInt16BE(at + (long ? 8 : 7)) + HEADER;
  if (total > maxFrame) throw new DecodeError('frame_too_large', `jt701: frame of ${total} bytes exceeds ${maxFrame}`);
  return buf.length - at >= total ? total : 0;
}

/** Cuts binary and text frames off the front of `buf`; never parses beyond the length or the ')'. */
export function splitJt701Frames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const length = frameLength(buf, offset, maxFrame);
    if (length === 0) break;
    frames.push(buf.subarray(offset, offset + length));
    offset += length;
  }
  return { frames, rest: buf.subarray(offset) };
}
