import { DecodeError, type FrameSplit } from '../protocol';

/**
 * Queclink @Track ASCII framing (facts from Queclink's @Track air interface protocols for the
 * GV300/GV55/GL300 and Traccar's Gl200FrameDecoder): every message is `+<kind>:GT<type>,...$`
 * (`+RESP`, `+BUFF`, `+ACK`), fields separated by commas, ended by `$`. CR, LF and spaces between
 * messages are skipped. The binary (HEX) @Track format (Traccar's Gl200BinaryProtocolDecoder; the
 * documents make it a configuration choice, e.g. the GV200's HEX report mask AT+GTHRM, and show the
 * text format in their examples) is not read: it starts `+RSP`, `+EVT`, `+INF`, `+ACK`... with a
 * binary byte where the text has its `:`, and is refused as garbage with that reason.
 */
const END = 0x24; // $
const PLUS = 0x2b;
const COLON = 0x3a;

function isBlank(b: number | undefined): boolean {
  return b === 0x0d || b === 0x0a || b === 0x20 || b === 0x00;
}

/** `+` and up to four letters must be followed by `:` (the binary format has a binary byte there). */
function checkText(buf: Buffer, at: number): void {
  let i = at + 1;
  while (i < buf.length && i - at <= 5 && buf[i]! >= 0x41 && buf[i]! <= 0x5a) i++;
  if (i < buf.length && buf[i] !== COLON) {
    throw new DecodeError(
      'bad_frame',
      `queclink: binary @Track message (${buf.subarray(at, i).toString('latin1')}): only the text format is read`,
    );
  }
}

export function splitQueclinkFrames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  for (;;) {
    while (offset < buf.length && isBlank(buf[offset])) offset++;
    if (offset >= buf.length) break;
    if (buf[offset] !== PLUS) throw new DecodeError('bad_frame', `queclink: expected '+' but got 0x${buf[offset]!.toString(16)}`);
    checkText(buf, offset);
    const end = buf.indexOf(END, offset);
    if (end < 0) {
      if (buf.length - offset >= maxFrame) throw new DecodeError('frame_too_large', `queclink: no '$' within ${maxFrame} bytes`);
      break;
    }
    if (end + 1 - offset > maxFrame)
      throw new DecodeError('frame_too_large', `queclink: message of ${end + 1 - offset} bytes exceeds ${maxFrame}`);
    frames.push(buf.subarray(offset, end + 1));
    offset = end + 1;
  }
  return { frames, rest: buf.subarray(offset) };
}
