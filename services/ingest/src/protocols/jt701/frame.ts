import { DecodeError, type FrameSplit } from '../protocol';

/**
 * Jointech JT600/JT701/JT709 framing (facts from Jointech's "Protocol of JT701 Product" and
 * Traccar's Jt600FrameDecoder): binary reports start with `$` (0x24) and carry a data length WORD at
 * offset 7, or at offset 8 in the long format (a protocol version byte follows the id; told, as
 * Traccar tells it, by a zero at offset 8: the long format's lengths are under 256, and the short
 * format's length ends there); the frame is that length + 10 bytes. Text messages are `( ... )`; in
 * them `=` escapes `(` (`=\x15`), `)` (`=\x14`), `,` (`=\x11`) and `=` (`=\x00`) of the binary data
 * some carry (unescapeJt701).
 */
const DOLLAR = 0x24;
const OPEN = 0x28;
const CLOSE = 0x29;
const HEADER = 10;

/** Long format (protocol version byte after the id): a zero at offset 8 of the frame. */
export function isLongFormat(frame: Buffer, at = 0): boolean {
  return frame[at + 8] === 0;
}

const ESCAPED: Readonly<Record<number, number>> = { 0x15: 0x28, 0x14: 0x29, 0x11: 0x2c, 0x00: 0x3d };

/** A text frame with its `=` escapes undone. */
export function unescapeJt701(frame: Buffer): Buffer {
  if (!frame.includes(0x3d)) return frame;
  const out = Buffer.alloc(frame.length);
  let n = 0;
  for (let i = 0; i < frame.length; i++) {
    const b = frame[i]!;
    const value = b === 0x3d ? ESCAPED[frame[i + 1] ?? -1] : undefined;
    if (value !== undefined) {
      out[n++] = value;
      i++;
    } else out[n++] = b;
  }
  return out.subarray(0, n);
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
  const long = isLongFormat(buf, at);
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
