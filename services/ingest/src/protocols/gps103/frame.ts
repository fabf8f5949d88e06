import { DecodeError, type FrameSplit } from '../protocol';

/** `;`, `*` and LF end a frame (Traccar's Gps103Protocol delimiters; CR LF ends at its LF). */
const DELIMITERS = new Set([0x3b /* ; */, 0x2a /* * */, 0x0a /* LF */]);

/** Cuts frames at `;`, `*` or LF, keeping the delimiter; refuses non-text bytes; never parses fields. */
export function splitGps103Frames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < buf.length; i++) {
    const byte = buf[i]!;
    if (byte !== 0x0d && byte !== 0x0a && byte !== 0x09 && (byte < 0x20 || byte > 0x7e)) {
      throw new DecodeError('bad_frame', `gps103: non-text byte 0x${byte.toString(16)}`);
    }
    if (!DELIMITERS.has(byte)) continue;
    const frame = buf.subarray(start, i + 1);
    if (frame.length > maxFrame) throw new DecodeError('frame_too_large', `gps103: frame of ${frame.length} bytes exceeds ${maxFrame}`);
    if (frame.toString('latin1').trim().length > 1) frames.push(Buffer.from(frame));
    start = i + 1;
  }
  const rest = buf.subarray(start);
  if (rest.length > maxFrame) throw new DecodeError('frame_too_large', `gps103: no delimiter within ${maxFrame} bytes`);
  return { frames, rest: Buffer.from(rest) };
}
