import { crc16X25 } from '../crc16';
import { GT06_HEADER, GT06_HEADER_EXTENDED } from './frame';

/**
 * A GT06 server packet: header, length (protocol number through CRC), protocol number, optional
 * content, serial number, CRC-16/X-25 over length..serial, 0D 0A. With no content it is the
 * acknowledgement the device expects: the same protocol number and serial it sent.
 */
export function encodeGt06Packet(extended: boolean, type: number, serial: number, content?: Buffer): Buffer {
  const contentLength = content?.length ?? 0;
  const length = 1 + contentLength + 2 + 2;
  const lengthBytes = extended ? 2 : 1;
  const out = Buffer.alloc(2 + lengthBytes + length + 2);
  out.writeUInt16BE(extended ? GT06_HEADER_EXTENDED : GT06_HEADER, 0);
  if (extended) out.writeUInt16BE(length, 2);
  else out.writeUInt8(length & 0xff, 2);
  let at = 2 + lengthBytes;
  out.writeUInt8(type & 0xff, at++);
  if (content) {
    content.copy(out, at);
    at += contentLength;
  }
  out.writeUInt16BE(serial & 0xffff, at);
  at += 2;
  out.writeUInt16BE(crc16X25(out.subarray(2, at)), at);
  at += 2;
  out[at] = 0x0d;
  out[at + 1] = 0x0a;
  return out;
}

export function encodeGt06Ack(extended: boolean, type: number, serial: number): Buffer {
  return encodeGt06Packet(extended, type, serial);
}
