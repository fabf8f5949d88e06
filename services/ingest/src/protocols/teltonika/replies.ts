import type { ByteReader } from '../byte-reader';
import { DecodeError } from '../protocol';
import type { Attributes } from '../result';
import { CODEC } from './codecs';

/**
 * Codec 12, 13 and 14 messages from the device (Teltonika Data Sending Protocols; Traccar's
 * TeltonikaProtocolDecoder for the forms seen in captures):
 * - codec 12: type(1: 0x06 response, 0x0D camera) size(4) text;
 * - codec 13: type(1) size(4) timestamp(4 s, or 8 ms in some firmwares) text;
 * - codec 14: type(1: 0x06 ACK, 0x11 nACK) size(4, counts the IMEI) IMEI(8, BCD with a leading
 *   zero) text; a nACK means the IMEI in the command was not this device's.
 * Text that is not printable is kept as hex. Axle-load replies (`UUUUww...SSS`) and codec 13
 * `GTSL|...` driver-card lines are device state rather than replies.
 */
export interface Reply {
  type: number;
  /** The reply text (attributes.result), or null for device state / camera data. */
  text: string | null;
  attributes: Attributes;
  /** Codec 13: the time the device stamped. */
  time: Date | null;
  /** Codec 12 camera transfer (type 0x0D): not supported. */
  camera: boolean;
}

const YEAR_2000_MS = 946_684_800_000;
const YEAR_2100_MS = 4_102_444_800_000;
const TYPE_CAMERA = 0x0d;
const TYPE_NACK = 0x11;

const printable = (b: number): boolean => b >= 0x20 || b === 0x0d || b === 0x0a;

/**
 * Codec 13 puts a timestamp before the text. Captures show three forms: size = text only with a
 * 4-byte timestamp in seconds, size = 8-byte millisecond timestamp + text, and size = 4-byte
 * timestamp + text (as the documentation describes). The bytes left before the trailing record
 * count tell them apart. Returns the text length and the time.
 */
function readCodec13Timestamp(r: ByteReader, size: number): { length: number; time: Date } {
  const available = r.remaining - 1;
  if (available === size + 4) return { length: size, time: new Date(r.u32() * 1000) };
  if (size >= 8 && available >= 8) {
    const probe = r.bytes(8);
    const ms = Number(probe.readBigUInt64BE(0));
    if (ms > YEAR_2000_MS && ms < YEAR_2100_MS) return { length: size - 8, time: new Date(ms) };
    r.rewind(8);
  }
  if (size < 4) throw new DecodeError('bad_frame', 'teltonika: codec 13 payload shorter than its timestamp');
  return { length: size - 4, time: new Date(r.u32() * 1000) };
}

/** `UUUUww<8 axle loads>;<load truck>;<load trailer>;<total truck>;<total trailer>;SSS` (tonnes). */
function axleLoads(text: string): Attributes | null {
  if (!text.startsWith('UUUUww') || !text.endsWith('SSS')) return null;
  const values = text.slice(6, -4).split(';').map(Number);
  if (values.length < 12 || values.some((v) => !Number.isFinite(v))) return null;
  const a: Attributes = {};
  for (let i = 0; i < 8; i++) a[`axle${i + 1}`] = values[i]!;
  Object.assign(a, { loadTruck: values[8]!, loadTrailer: values[9]!, totalTruck: values[10]!, totalTrailer: values[11]! });
  return a;
}

export function readReply(r: ByteReader, codec: number): Reply {
  const type = r.u8();
  let length = r.u32();
  let time: Date | null = null;
  const attributes: Attributes = {};
  if (codec === CODEC.c13) ({ length, time } = readCodec13Timestamp(r, length));
  if (codec === CODEC.c14) {
    if (length < 8) throw new DecodeError('bad_frame', 'teltonika: codec 14 reply shorter than its IMEI');
    attributes.imei = r.bytes(8).toString('hex').replace(/^0/, '');
    length -= 8;
  }
  const content = r.bytes(length);
  if (codec === CODEC.c12 && type === TYPE_CAMERA) return { type, text: null, attributes, time, camera: true };
  if (codec === CODEC.c14 && type === TYPE_NACK) {
    return { type, text: 'nACK: the command was for another IMEI', attributes, time, camera: false };
  }
  const text = content.every(printable) ? content.toString('latin1').trim() : content.toString('hex');
  const axles = codec === CODEC.c12 ? axleLoads(text) : null;
  if (axles) return { type, text: null, attributes: axles, time, camera: false };
  if (codec === CODEC.c13 && text.startsWith('GTSL')) {
    const driver = text.split('|')[4];
    if (driver) return { type, text: null, attributes: { driverUniqueId: driver }, time, camera: false };
  }
  return { type, text, attributes, time, camera: false };
}
