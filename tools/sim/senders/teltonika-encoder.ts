import type { Fix } from '../truck';

/**
 * Teltonika frames as an FMB tracker sends them (Teltonika "Codec" documentation):
 * - the IMEI handshake `<length:2> <IMEI ASCII>`, answered 0x01;
 * - AVL packets `00000000 <data length:4> <codec 8: 08 <count> records <count>> <CRC-16/IBM:4>`,
 *   answered with the accepted record count (4 bytes).
 * Written independently of ingest's decoder (bitwise CRC, own record packing).
 */
const CODEC_8 = 0x08;

/** IO element ids used here (Teltonika FMB AVL id list). */
const IO = { ignition: 239, movement: 240, gsmSignal: 21, externalVoltage: 66, totalOdometer: 16 } as const;

/** CRC-16/IBM (ARC): reflected 0x8005 (0xA001), init 0, no final xor. */
export function crc16Ibm(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
  }
  return crc & 0xffff;
}

export function teltonikaImei(imei: string): Buffer {
  if (!/^\d{1,32}$/.test(imei)) throw new RangeError(`teltonika: IMEI must be digits, got ${imei}`);
  const out = Buffer.alloc(2 + imei.length);
  out.writeUInt16BE(imei.length, 0);
  out.write(imei, 2, 'latin1');
  return out;
}

export interface AvlRecordOptions {
  ignition?: boolean;
  /** Volts. */
  externalVoltage?: number;
  /** Metres. */
  odometer?: number;
  gsmSignal?: number;
  satellites?: number;
  priority?: 0 | 1 | 2;
}

function record(fix: Fix, opts: AvlRecordOptions): Buffer {
  const head = Buffer.alloc(24);
  head.writeBigUInt64BE(BigInt(fix.time.getTime()), 0);
  head.writeUInt8(opts.priority ?? 0, 8);
  head.writeInt32BE(Math.round(fix.lon * 1e7), 9);
  head.writeInt32BE(Math.round(fix.lat * 1e7), 13);
  head.writeInt16BE(Math.round(fix.altitudeM), 17);
  head.writeUInt16BE(Math.round(fix.courseDeg) % 360, 19);
  head.writeUInt8(opts.satellites ?? 10, 21);
  head.writeUInt16BE(Math.round(fix.speedKph), 22);
  const moving = fix.speedKph > 0;
  const one: [number, number][] = [
    [IO.ignition, opts.ignition === false ? 0 : 1],
    [IO.movement, moving ? 1 : 0],
    [IO.gsmSignal, opts.gsmSignal ?? 4],
  ];
  const two: [number, number][] = [[IO.externalVoltage, Math.round((opts.externalVoltage ?? 24.1) * 1000)]];
  const four: [number, number][] = opts.odometer !== undefined ? [[IO.totalOdometer, Math.round(opts.odometer)]] : [];
  const parts: Buffer[] = [head, Buffer.from([0, one.length + two.length + four.length])]; // event IO id 0, total count
  parts.push(Buffer.from([one.length, ...one.flatMap(([id, v]) => [id, v])]));
  const twoBuf = Buffer.alloc(1 + two.length * 3);
  twoBuf.writeUInt8(two.length, 0);
  two.forEach(([id, v], i) => {
    twoBuf.writeUInt8(id, 1 + i * 3);
    twoBuf.writeUInt16BE(v, 2 + i * 3);
  });
  parts.push(twoBuf);
  const fourBuf = Buffer.alloc(1 + four.length * 5);
  fourBuf.writeUInt8(four.length, 0);
  four.forEach(([id, v], i) => {
    fourBuf.writeUInt8(id, 1 + i * 5);
    fourBuf.writeUInt32BE(v >>> 0, 2 + i * 5);
  });
  parts.push(fourBuf, Buffer.from([0])); // no 8-byte elements
  return Buffer.concat(parts);
}

/** One codec 8 AVL packet carrying `fixes` (1..255 records) with its CRC. */
export function teltonikaAvlPacket(fixes: readonly Fix[], opts: AvlRecordOptions = {}): Buffer {
  if (fixes.length < 1 || fixes.length > 255) throw new RangeError('teltonika: 1 to 255 records per packet');
  const data = Buffer.concat([Buffer.from([CODEC_8, fixes.length]), ...fixes.map((f) => record(f, opts)), Buffer.from([fixes.length])]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(0, 0);
  out.writeUInt32BE(data.length, 4);
  data.copy(out, 8);
  out.writeUInt32BE(crc16Ibm(data), 8 + data.length);
  return out;
}
