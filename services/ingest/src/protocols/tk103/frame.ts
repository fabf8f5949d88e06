import { DecodeError, type FrameSplit } from '../protocol';

const OPEN = 0x28;
const CLOSE = 0x29;
const DOLLAR = 0x24;

/** Index of the `)` closing the frame opened at `start`: the first one outside `$...$` free text (a command reply's text may hold parentheses), or -1. */
function frameEnd(buf: Buffer, start: number): number {
  let inText = false;
  for (let i = start + 1; i < buf.length; i++) {
    const byte = buf[i];
    if (byte === DOLLAR) inText = !inText;
    else if (byte === CLOSE && !inText) return i;
  }
  return -1;
}

/**
 * Cuts `( ... )` frames; CR/LF and spaces between frames are dropped; never parses fields. A frame
 * ends at its first `)` outside `$...$` free text (facts from Traccar's Tk103FrameDecoder: ZC03
 * replies such as `$... interval is set to 240 minute(s).$` carry parentheses).
 */
export function splitTk103Frames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const byte = buf[offset];
    if (byte === 0x0d || byte === 0x0a || byte === 0x20) {
      offset++;
      continue;
    }
    if (byte !== OPEN) throw new DecodeError('bad_frame', `tk103: expected '(' but got 0x${(byte ?? 0).toString(16)}`);
    const end = frameEnd(buf, offset);
    if (end < 0) {
      if (buf.length - offset > maxFrame) throw new DecodeError('frame_too_large', `tk103: no ')' within ${maxFrame} bytes`);
      break;
    }
    if (end + 1 - offset > maxFrame) throw new DecodeError('frame_too_large', `tk103: frame exceeds ${maxFrame} bytes`);
    frames.push(Buffer.from(buf.subarray(offset, end + 1)));
    offset = end + 1;
  }
  return { frames, rest: Buffer.from(buf.subarray(offset)) };
}
