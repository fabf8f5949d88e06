import { DecodeError, type FrameSplit } from '../protocol';

/**
 * Wialon IPS framing (facts from Gurtam's "Wialon IPS" communication protocol documents, versions
 * 1.1 and 2.0): every packet is one text line `#<type>#<message>\r\n` (UTF-8: parameter names and
 * values may be in any script). A line may carry the device id in front (`<imei>#SD#...`, or
 * `2.0;<imei>#D#...`), the form of the UDP transport that some devices use over TCP as well. The
 * photo packet `#I#<size>;<index>;...\r\n` is followed by `<size>` bytes of image, which belong to
 * its frame. Blank lines between packets are skipped.
 */
const LF = 0x0a;
const CR = 0x0d;
const HASH = 0x23;
const PHOTO = Buffer.from('#I#');

function isBlank(b: number | undefined): boolean {
  return b === CR || b === LF || b === 0x20 || b === 0x00;
}

/** Control bytes other than tab and CR do not occur in a packet line. */
function checkLine(buf: Buffer, start: number, end: number): void {
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    if (b < 0x20 && b !== 0x09 && b !== CR) throw new DecodeError('bad_frame', `wialon: control byte 0x${b.toString(16)} in a packet line`);
  }
}

/** The size of the image following a `#I#` line, or 0. */
function photoSize(line: Buffer): number {
  if (!line.subarray(0, PHOTO.length).equals(PHOTO)) return 0;
  const size = /^#I#(\d{1,9});/.exec(line.toString('latin1'));
  return size ? Number(size[1]) : 0;
}

/** Cuts packet lines (with their CR LF, and a photo's image bytes) off the front of `buf`. */
export function splitWialonFrames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  for (;;) {
    while (offset < buf.length && isBlank(buf[offset])) offset++;
    if (offset >= buf.length) break;
    const first = buf[offset]!;
    // a packet starts with '#', or with the device id (digits, letters) of the id-prefixed form
    if (first !== HASH && !/[0-9A-Za-z]/.test(String.fromCharCode(first))) {
      throw new DecodeError('bad_frame', `wialon: a packet does not start with 0x${first.toString(16)}`);
    }
    const end = buf.indexOf(LF, offset);
    const available = end < 0 ? buf.length : end;
    checkLine(buf, offset, available);
    if (end < 0) {
      if (buf.length - offset >= maxFrame) throw new DecodeError('frame_too_large', `wialon: no line end within ${maxFrame} bytes`);
      break;
    }
    const length = end + 1 - offset + photoSize(buf.subarray(offset, end));
    if (length > maxFrame) throw new DecodeError('frame_too_large', `wialon: packet of ${length} bytes exceeds ${maxFrame}`);
    if (buf.length - offset < length) break;
    frames.push(buf.subarray(offset, offset + length));
    offset += length;
  }
  return { frames, rest: buf.subarray(offset) };
}
