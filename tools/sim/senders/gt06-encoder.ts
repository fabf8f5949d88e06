import type { Fix } from '../truck';

/**
 * GT06 / Concox frames as a tracker sends them (layouts from the Concox GT06 protocol document):
 * `78 78 <length> <protocol number> <content> <serial:2> <CRC-ITU:2> 0D 0A`, the length counting
 * protocol number through CRC, the CRC over length through serial. Written independently of
 * ingest's decoder (bitwise CRC, own field packing) so the simulator checks it end to end.
 */
export const GT06_LOGIN = 0x01;
const GT06_STATUS = 0x13;
export const GT06_LOCATION = 0x22;

/** CRC-ITU as the GT06 document specifies it (CRC-16/X-25: reflected 0x1021, init/xorout 0xFFFF). */
export function crcItu(data: Uint8Array): number {
  let crc = 0xffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x8408 : crc >>> 1;
  }
  return ~crc & 0xffff;
}

export function gt06Packet(type: number, content: Buffer, serial: number): Buffer {
  const length = 1 + content.length + 2 + 2;
  if (length > 0xff) throw new RangeError('gt06: content too long for a 0x7878 packet');
  const head = Buffer.from([0x78, 0x78, length, type]);
  const serialBytes = Buffer.alloc(2);
  serialBytes.writeUInt16BE(serial & 0xffff);
  const body = Buffer.concat([head, content, serialBytes]);
  const crc = Buffer.alloc(2);
  crc.writeUInt16BE(crcItu(body.subarray(2)));
  return Buffer.concat([body, crc, Buffer.from([0x0d, 0x0a])]);
}

/** Login: the IMEI as 8 bytes of BCD with a leading zero digit. */
export function gt06Login(imei: string, serial: number): Buffer {
  if (!/^\d{15}$/.test(imei)) throw new RangeError(`gt06: IMEI must be 15 digits, got ${imei}`);
  return gt06Packet(GT06_LOGIN, Buffer.from(`0${imei}`, 'hex'), serial);
}

/** Status/heartbeat: terminal info (ACC bit 1, charging bit 2), voltage level 0..6, GSM signal 0..4, language word. */
export function gt06Status(serial: number, opts: { ignition?: boolean; voltageLevel?: number; gsm?: number } = {}): Buffer {
  const info = (opts.ignition ? 0x02 : 0) | 0x04 | 0x40;
  return gt06Packet(GT06_STATUS, Buffer.from([info, opts.voltageLevel ?? 6, opts.gsm ?? 4, 0x00, 0x02]), serial);
}

/** date(6, UTC) satellites(1) lat(4) lon(4) speed(1, km/h) course/status(2). */
function gpsBlock(fix: Fix, satellites: number): Buffer {
  const out = Buffer.alloc(18);
  const t = fix.time;
  out.writeUInt8(t.getUTCFullYear() % 100, 0);
  out.writeUInt8(t.getUTCMonth() + 1, 1);
  out.writeUInt8(t.getUTCDate(), 2);
  out.writeUInt8(t.getUTCHours(), 3);
  out.writeUInt8(t.getUTCMinutes(), 4);
  out.writeUInt8(t.getUTCSeconds(), 5);
  out.writeUInt8(0xc0 | Math.min(15, Math.max(0, satellites)), 6); // high nibble: GPS info length 12
  out.writeUInt32BE(Math.round(Math.abs(fix.lat) * 60 * 30000), 7);
  out.writeUInt32BE(Math.round(Math.abs(fix.lon) * 60 * 30000), 11);
  out.writeUInt8(Math.min(255, Math.round(fix.speedKph)), 15);
  let status = Math.round(fix.courseDeg) % 360;
  status |= 0x1000; // positioned
  status |= 0x2000; // real-time GPS
  if (fix.lat >= 0) status |= 0x0400; // north
  if (fix.lon < 0) status |= 0x0800; // west
  out.writeUInt16BE(status, 16);
  return out;
}

export interface Gt06LocationOptions {
  satellites?: number;
  ignition?: boolean;
  /** MCC 639 (Kenya) or 640 (Tanzania). */
  mcc?: number;
}

/** Location 0x22: GPS block, LBS (MCC, MNC, LAC, cell id), ACC, upload mode, real-time flag. */
export function gt06Location(fix: Fix, serial: number, opts: Gt06LocationOptions = {}): Buffer {
  const lbs = Buffer.alloc(8);
  lbs.writeUInt16BE(opts.mcc ?? 639, 0);
  lbs.writeUInt8(2, 2); // MNC
  lbs.writeUInt16BE(0x1f40, 3); // LAC
  lbs.writeUIntBE(0x00a1b2, 5, 3); // cell id
  const tail = Buffer.from([opts.ignition === false ? 0 : 1, 0x00, 0x00]); // ACC, upload mode (timed), real-time
  return gt06Packet(GT06_LOCATION, Buffer.concat([gpsBlock(fix, opts.satellites ?? 9), lbs, tail]), serial);
}

/** The server's answer to a packet: the same protocol number and serial, no content. */
export function isGt06Ack(frame: Buffer, type: number, serial: number): boolean {
  return (
    frame.length === 10 &&
    frame[0] === 0x78 &&
    frame[1] === 0x78 &&
    frame[2] === 0x05 &&
    frame[3] === type &&
    frame.readUInt16BE(4) === (serial & 0xffff) &&
    frame.readUInt16BE(6) === crcItu(frame.subarray(2, 6))
  );
}

/** Cuts server packets (`78 78 <len> ... 0D 0A`) off the front of what the device received. */
export function splitGt06Replies(buf: Buffer): { frames: Buffer[]; rest: Buffer } {
  const frames: Buffer[] = [];
  let at = 0;
  while (buf.length - at >= 3) {
    if (buf[at] !== 0x78 || buf[at + 1] !== 0x78) {
      at++; // not a packet start: skip (a device ignores what it cannot parse)
      continue;
    }
    const total = 2 + 1 + buf[at + 2]! + 2;
    if (buf.length - at < total) break;
    frames.push(buf.subarray(at, at + total));
    at += total;
  }
  return { frames, rest: buf.subarray(at) };
}
