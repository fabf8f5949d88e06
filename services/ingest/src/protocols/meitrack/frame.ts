import { DecodeError, type FrameSplit } from '../protocol';

/**
 * Meitrack framing (facts from the Meitrack GPRS protocol documents and Traccar's
 * MeitrackFrameDecoder): `$$<flag><length>,<imei>,<command>,...*<checksum 2 hex>\r\n`, where the
 * length counts from the comma after it through the CR LF, so frame size = index of that comma +
 * length. Binary bodies (CCC, CCE, photo data) are cut by the same length. The checksum is the sum
 * of every byte up to and including `*`, modulo 256.
 */
const MAX_HEADER = 12; // "$$" + flag + up to 8 length digits + ","

/** Length of the frame at the start of `buf`, 0 when more bytes are needed. */
function frameLength(buf: Buffer, maxFrame: number): number {
  if (buf[0] !== 0x24 || (buf.length > 1 && buf[1] !== 0x24)) {
    throw new DecodeError('bad_frame', `meitrack: expected '$$' but got 0x${buf.subarray(0, 2).toString('hex')}`);
  }
  const comma = buf.subarray(0, MAX_HEADER).indexOf(0x2c);
  if (comma < 0) {
    if (buf.length >= MAX_HEADER) throw new DecodeError('bad_frame', 'meitrack: no length field');
    return 0;
  }
  const digits = buf.subarray(3, comma).toString('latin1');
  if (comma < 4 || !/^\d+$/.test(digits)) throw new DecodeError('bad_frame', 'meitrack: bad length field');
  const total = comma + Number(digits);
  if (total > maxFrame) throw new DecodeError('frame_too_large', `meitrack: frame of ${total} bytes exceeds ${maxFrame}`);
  if (total <= comma) throw new DecodeError('bad_frame', 'meitrack: empty frame');
  return buf.length >= total ? total : 0;
}

/** Cuts whole `$$` frames off the front of `buf` by their declared length; never parses fields. */
export function splitMeitrackFrames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  while (offset < buf.length) {
    const byte = buf[offset];
    if (byte === 0x0d || byte === 0x0a) {
      offset++;
      continue;
    }
    const length = frameLength(buf.subarray(offset), maxFrame);
    if (length === 0) break;
    frames.push(Buffer.from(buf.subarray(offset, offset + length)));
    offset += length;
  }
  return { frames, rest: Buffer.from(buf.subarray(offset)) };
}

/** Sum of the bytes through `*`, modulo 256, against the two hex digits after it. */
export function meitrackChecksumValid(frame: Buffer, star: number): boolean {
  let sum = 0;
  for (let i = 0; i <= star; i++) sum = (sum + frame[i]!) & 0xff;
  const declared = frame.subarray(star + 1, star + 3).toString('latin1');
  return /^[0-9A-Fa-f]{2}$/.test(declared) && parseInt(declared, 16) === sum;
}

/** A server command or acknowledgement: `@@<flag><length>,<imei>,<content>*<checksum>\r\n`. */
export function encodeMeitrackCommand(flag: string, imei: string, content: string): Buffer {
  const tail = `,${imei},${content}*`;
  // The length counts from the first comma through CR LF: the tail, two checksum digits, CR LF.
  const length = tail.length + 2 + 2;
  const head = `@@${flag}${length}${tail}`;
  let sum = 0;
  for (const ch of Buffer.from(head, 'latin1')) sum = (sum + ch) & 0xff;
  return Buffer.from(`${head}${sum.toString(16).toUpperCase().padStart(2, '0')}\r\n`, 'latin1');
}
