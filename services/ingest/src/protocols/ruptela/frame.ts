import { crc16Kermit } from '../crc16';
import { DecodeError, type FrameSplit } from '../protocol';

/**
 * Ruptela framing (facts from Ruptela's "FM-Tco4/Eco4/Pro4 protocol" document and Traccar's
 * RuptelaProtocol/RuptelaProtocolEncoder): `<length WORD> <payload> <CRC-16 WORD>`, the length
 * counting the payload only. Device payloads start with the IMEI (8 bytes, an unsigned number) and a
 * command byte; server payloads are a command byte (100 + the device command it answers or
 * starts) and its data. The check is CRC-16/KERMIT over the payload, sent big-endian.
 */
const HEADER = 2;
const CRC = 2;

/** Cuts `length payload crc` frames off the front of `buf`; never parses the payload. */
export function splitRuptelaFrames(buf: Buffer, maxFrame: number): FrameSplit {
  const frames: Buffer[] = [];
  let offset = 0;
  while (buf.length - offset >= HEADER) {
    const length = buf.readUInt16BE(offset);
    if (length === 0) throw new DecodeError('bad_frame', 'ruptela: zero payload length');
    const total = HEADER + length + CRC;
    if (total > maxFrame) throw new DecodeError('frame_too_large', `ruptela: frame of ${total} bytes exceeds ${maxFrame}`);
    if (buf.length - offset < total) break;
    frames.push(buf.subarray(offset, offset + total));
    offset += total;
  }
  return { frames, rest: buf.subarray(offset) };
}

/** The payload of a whole frame and whether its CRC matches. */
export function ruptelaPayload(frame: Buffer): { payload: Buffer; crcValid: boolean } {
  if (frame.length < HEADER + CRC) throw new DecodeError('truncated', 'ruptela: frame shorter than its length and CRC');
  const length = frame.readUInt16BE(0);
  if (frame.length !== HEADER + length + CRC)
    throw new DecodeError('bad_frame', `ruptela: length ${length} does not match a frame of ${frame.length} bytes`);
  const payload = frame.subarray(HEADER, HEADER + length);
  return { payload, crcValid: crc16Kermit(payload) === frame.readUInt16BE(HEADER + length) };
}

/** A server packet: length, command byte, data, CRC. */
export function encodeRuptela(command: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const out = Buffer.alloc(HEADER + 1 + data.length + CRC);
  out.writeUInt16BE(1 + data.length, 0);
  out.writeUInt8(command, HEADER);
  data.copy(out, HEADER + 1);
  out.writeUInt16BE(crc16Kermit(out.subarray(HEADER, HEADER + 1 + data.length)), HEADER + 1 + data.length);
  return out;
}
