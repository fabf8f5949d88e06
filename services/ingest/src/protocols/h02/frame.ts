import { DecodeError, type FrameSplit } from '../protocol';

/**
 * H02 framing (facts from Traccar's H02FrameDecoder and the public H02 document):
 * - text frames `*XX,<id>,<type>,...#` end at the first `#`; CR/LF may follow and is dropped;
 * - binary frames start with `$` (0x24) and carry no length: 32 bytes is the base report, longer
 *   firmwares append data (42 with an 8-byte id, 45, 46, 48 bytes in public captures);
 * - `X` (0x58) frames are 32-byte binary reports without a position the decoder ignores.
 *
 * Binary length is found without parsing fields: the frame ends where the next frame visibly starts
 * (a text header or a binary header whose id and time bytes are BCD), or at the end of the buffer
 * when the buffer holds exactly one of the known lengths. Known limitation: when TCP cuts a long
 * binary frame exactly at 32/42/45/46 bytes and nothing follows yet, the cut is taken as the end.
 */
const STAR = 0x2a;
const HASH = 0x23;
const DOLLAR = 0x24;
const X = 0x58;
const CR = 0x0d;
const LF = 0x0a;
export const H02_BINARY_SHORT = 32;
const KNOWN_BINARY_LENGTHS = [32, 42, 45, 46, 48];
const MAX_BINARY = 64;

function isBcd(byte: number | undefined): boolean {
  return byte !== undefined && byte >> 4 <= 9 && (byte & 0x0f) <= 9;
}

function isLetter(byte: number | undefined): boolean {
  return byte !== undefined && ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));
}

type Start = 'yes' | 'no' | 'maybe';

/** Whether a frame visibly starts at `at`: 'maybe' when the bytes so far fit but are too few to tell. */
function frameStartsAt(buf: Buffer, at: number): Start {
  const marker = buf[at];
  let checks: ((b: number | undefined) => boolean)[];
  if (marker === STAR) checks = [isLetter, isLetter, (b) => b === 0x2c];
  else if (marker === DOLLAR || marker === X) checks = Array.from({ length: 11 }, () => isBcd);
  else return 'no';
  for (let i = 0; i < checks.length; i++) {
    if (at + 1 + i >= buf.length) return 'maybe';
    if (!checks[i]!(buf[at + 1 + i])) return 'no';
  }
  return 'yes';
}

/** Length of the binary frame at the start of `buf`, 0 when more bytes are needed. */
function binaryLength(buf: Buffer): number {
  if (buf[0] === X) return buf.length >= H02_BINARY_SHORT ? H02_BINARY_SHORT : 0;
  const limit = Math.min(buf.length - 1, MAX_BINARY);
  for (let end = H02_BINARY_SHORT; end <= limit; end++) {
    const start = frameStartsAt(buf, end);
    if (start === 'yes') return end;
    // A partial header right after the base length, or with a few matching bytes, means: wait.
    if (start === 'maybe' && (end === H02_BINARY_SHORT || buf.length - end >= 5)) return 0;
  }
  if (KNOWN_BINARY_LENGTHS.includes(buf.length)) return buf.length;
  if (buf.length > MAX_BINARY) throw new DecodeError('bad_frame', 'h02: binary frame without a recognisable end');
  return 0;
}

/** Cuts whole H02 frames off the front of `buf`; never parses fields. */
export function splitH02Frames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const marker = buf[offset];
    if (marker === CR || marker === LF) {
      offset++;
      continue;
    }
    const rest = buf.subarray(offset);
    let length = 0;
    if (marker === STAR) {
      const hash = rest.indexOf(HASH);
      if (hash < 0) {
        if (rest.length > maxFrame) throw new DecodeError('frame_too_large', `h02: no '#' within ${maxFrame} bytes`);
        break;
      }
      length = hash + 1;
    } else if (marker === DOLLAR || marker === X) {
      length = binaryLength(rest);
      if (length === 0) break;
    } else {
      throw new DecodeError('bad_frame', `h02: unexpected byte 0x${(marker ?? 0).toString(16)} at frame start`);
    }
    if (length > maxFrame) throw new DecodeError('frame_too_large', `h02: frame of ${length} bytes exceeds ${maxFrame}`);
    frames.push(Buffer.from(rest.subarray(0, length)));
    offset += length;
  }
  return { frames, rest: Buffer.from(buf.subarray(offset)) };
}
