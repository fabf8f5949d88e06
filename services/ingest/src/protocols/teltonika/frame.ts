import { DecodeError, type FrameSplit } from '../protocol';

/**
 * Teltonika TCP framing (facts from Teltonika's "Codec" documentation and Traccar's
 * TeltonikaFrameDecoder):
 * - IMEI handshake: `<length:2> <IMEI ASCII>`;
 * - AVL data packet: `00000000 <data length:4> <data: codec, count, records, count> <CRC:4>`;
 * - a single 0xFF byte is a keep-alive ping.
 */
export const KEEPALIVE_BYTE = 0xff;
const PREAMBLE_AND_LENGTH = 8;
const CRC_FIELD = 4;
const MIN_DATA_LENGTH = 3;
/** An IMEI is 15 digits; allow some slack for other identifiers but reject obvious garbage. */
export const MAX_IMEI_LENGTH = 32;

/** Length of the frame at the start of `buf`, 0 when more bytes are needed. */
function frameLength(buf: Buffer, maxFrame: number): number {
  if (buf.length === 0) return 0;
  if (buf[0] === KEEPALIVE_BYTE) return 1;
  if (buf.length < 2) return 0;
  const imeiLength = buf.readUInt16BE(0);
  if (imeiLength > 0) {
    if (imeiLength > MAX_IMEI_LENGTH) throw new DecodeError('bad_frame', `teltonika: identification length ${imeiLength} is not an IMEI`);
    return buf.length >= imeiLength + 2 ? imeiLength + 2 : 0;
  }
  if (buf.length < PREAMBLE_AND_LENGTH) return 0;
  if (buf.readUInt16BE(2) !== 0) throw new DecodeError('bad_frame', 'teltonika: AVL packet preamble is not 00000000');
  const dataLength = buf.readUInt32BE(4);
  // Codec, two record counts at the least: a smaller length cannot frame the packet (seen as 0 from broken firmwares).
  if (dataLength < MIN_DATA_LENGTH) throw new DecodeError('bad_frame', `teltonika: AVL packet declares ${dataLength} data bytes`);
  const total = PREAMBLE_AND_LENGTH + dataLength + CRC_FIELD;
  if (total > maxFrame) throw new DecodeError('frame_too_large', `teltonika: packet of ${total} bytes exceeds ${maxFrame}`);
  return buf.length >= total ? total : 0;
}

/** Cuts whole frames off the front of `buf`; never parses fields beyond the lengths. */
export function splitTeltonikaFrames(buf: Buffer, maxFrame: number): FrameSplit {
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
