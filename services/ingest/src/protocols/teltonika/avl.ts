import { ByteReader } from '../byte-reader';
import { DecodeError, type DecodedPosition } from '../protocol';
import { ioSpecFor, type IoElementSpec, type IoValue } from './io-elements';

/**
 * Teltonika AVL data field (codec id, record count, records, record count), shared by TCP and UDP.
 * Record layouts of codec 8, 8 Extended (0x8E: 2-byte ids and counts, variable-length group) and
 * 16 (2-byte ids, generation type) are facts from Teltonika's Codec documentation; Traccar's
 * TeltonikaProtocolDecoder reads the same layout.
 */
export const CODEC = { gh3000: 0x07, c8: 0x08, c8e: 0x8e, c12: 0x0c, c13: 0x0d, c16: 0x10 } as const;

const KPH_PER_KNOT = 1.852;
const FIXED_GROUP_SIZES = [1, 2, 4, 8] as const;

export interface AvlData {
  codec: number;
  /** Record count from the header (what the acknowledgement echoes). */
  count: number;
  positions: DecodedPosition[];
  /** Codec 12/13 command responses carry text instead of records. */
  attributes?: Record<string, string>;
}

function applyIo(position: DecodedPosition, alarms: string[], id: number, raw: Buffer, variableLength: boolean): void {
  const spec: IoElementSpec = ioSpecFor(id, variableLength);
  const value: IoValue = spec.read(raw);
  const alarm = spec.alarm?.(value);
  if (alarm) alarms.push(alarm);
  switch (spec.field) {
    case 'ignition':
      position.ignition = value === true;
      return;
    case 'odometer':
    case 'power':
    case 'battery':
    case 'hdop':
      if (typeof value === 'number') position[spec.field] = value;
      else position.attributes[spec.key] = value;
      return;
    default:
      position.attributes[spec.key] = value;
  }
}

function readRecord(r: ByteReader, codec: number, deviceId: string | undefined): DecodedPosition | null {
  const timestamp = r.u64();
  const priority = r.u8();
  const longitude = r.i32() / 1e7;
  const latitude = r.i32() / 1e7;
  const altitude = r.i16();
  const course = r.u16();
  const satellites = r.u8();
  const speedKph = r.u16();
  const wide = codec === CODEC.c8e; // 2-byte counts
  const wideIds = codec === CODEC.c8e || codec === CODEC.c16;
  const eventId = wideIds ? r.u16() : r.u8();
  const generationType = codec === CODEC.c16 ? r.u8() : null;
  if (wide) r.u16();
  else r.u8(); // total IO count

  const position: DecodedPosition = {
    deviceId,
    fixTime: new Date(timestamp),
    valid: satellites !== 0,
    latitude,
    longitude,
    altitude,
    speed: speedKph / KPH_PER_KNOT,
    course,
    satellites,
    attributes: { priority, event: eventId },
  };
  if (generationType !== null) position.attributes.generationType = generationType;

  const alarms: string[] = [];
  for (const size of FIXED_GROUP_SIZES) {
    const n = wide ? r.u16() : r.u8();
    for (let i = 0; i < n; i++) {
      const id = wideIds ? r.u16() : r.u8();
      applyIo(position, alarms, id, r.bytes(size), false);
    }
  }
  if (codec === CODEC.c8e) {
    const n = r.u16();
    for (let i = 0; i < n; i++) {
      const id = r.u16();
      applyIo(position, alarms, id, r.bytes(r.u16()), true);
    }
  }
  if (alarms.length > 0) position.alarm = alarms.join(',');
  // A timestamp that is not a real date (garbage or an unset RTC) cannot be stored.
  return Number.isFinite(position.fixTime.getTime()) ? position : null;
}

const YEAR_2000_MS = 946_684_800_000;
const YEAR_2100_MS = 4_102_444_800_000;

/**
 * Codec 13 puts a timestamp before the text. Captures show three forms: size = text only with a
 * 4-byte timestamp in seconds, size = 8-byte millisecond timestamp + text, and size = 4-byte
 * timestamp + text (as the documentation describes). The bytes left before the trailing record
 * count tell them apart. Returns the text length.
 */
function skipCodec13Timestamp(r: ByteReader, size: number): number {
  const available = r.remaining - 1;
  if (available === size + 4) {
    r.u32();
    return size;
  }
  if (size >= 8 && available >= 8) {
    const probe = r.bytes(8);
    const ms = Number(probe.readBigUInt64BE(0));
    if (ms > YEAR_2000_MS && ms < YEAR_2100_MS) return size - 8;
    r.rewind(4);
    return size - 4;
  }
  if (size < 4) throw new DecodeError('bad_frame', 'teltonika: codec 13 payload shorter than its timestamp');
  r.u32();
  return size - 4;
}

/** Codec 12 (type 0x06 response) / 13 (with a 4-byte timestamp) text from the device. */
function readCommandResponse(r: ByteReader, codec: number): Record<string, string> {
  const type = r.u8();
  let length = r.u32();
  if (codec === CODEC.c13) length = skipCodec13Timestamp(r, length);
  const content = r.bytes(length);
  const printable = content.every((b) => b >= 0x20 || b === 0x0d || b === 0x0a);
  return { type: String(type), result: printable ? content.toString('latin1').trim() : content.toString('hex') };
}

export function parseAvlData(data: Buffer, deviceId: string | undefined): AvlData {
  const r = new ByteReader(data, 'teltonika');
  const codec = r.u8();
  const count = r.u8();
  const positions: DecodedPosition[] = [];
  let attributes: Record<string, string> | undefined;
  if (codec === CODEC.c12 || codec === CODEC.c13) {
    if (count > 0) attributes = readCommandResponse(r, codec);
    for (let i = 1; i < count; i++) readCommandResponse(r, codec);
  } else if (codec === CODEC.c8 || codec === CODEC.c8e || codec === CODEC.c16) {
    for (let i = 0; i < count; i++) {
      const position = readRecord(r, codec, deviceId);
      if (position) positions.push(position);
    }
  } else {
    throw new DecodeError('unsupported_codec', `teltonika: codec 0x${codec.toString(16)} is not supported`);
  }
  const trailer = r.u8();
  if (trailer !== count) throw new DecodeError('bad_frame', `teltonika: record counts differ (${count} vs ${trailer})`);
  if (r.remaining !== 0) throw new DecodeError('bad_frame', `teltonika: ${r.remaining} bytes after the record count`);
  const result: AvlData = { codec, count, positions };
  if (attributes) result.attributes = attributes;
  return result;
}
