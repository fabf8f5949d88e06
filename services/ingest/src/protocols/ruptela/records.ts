import type { DecodedPosition } from '../protocol';
import { readIoValue, RUPTELA_DRIVER_PARTS, RUPTELA_IO, type IoOut } from './io';

/**
 * Ruptela record packets (facts from Ruptela's protocol document and Traccar's
 * RuptelaProtocolDecoder): command 1 "records" and 68 "extended records" carry
 * `records left BYTE, count BYTE` then records of
 * `time DWORD (unix s), time extension BYTE, [68: record extension BYTE], priority BYTE,
 *  longitude INT32 and latitude INT32 (1e-7 degrees; INT32_MIN when there is no fix),
 *  altitude WORD (0.1 m), angle WORD (0.01 degree), satellites BYTE, speed WORD (km/h), HDOP BYTE (0.1),
 *  event id (BYTE; 68: WORD)` and four IO groups of 1, 2, 4 and 8-byte values, each
 * `count BYTE, (id (BYTE; 68: WORD), value)*`. In command 68 the record extension's high nibble
 * counts the records merged into one and its low nibble is this record's place: places after the
 * first add their IO elements to the record before.
 */
const NO_FIX = -0x80000000;
const KNOTS_PER_KMH = 1 / 1.852;
const GROUP_SIZES = [1, 2, 4, 8] as const;

export interface RuptelaRecords {
  positions: DecodedPosition[];
  /** State of the last record without a fix, when no record had one, and that record's time. */
  state: DecodedPosition['attributes'] | null;
  stateTime: Date | null;
  alarms: string[];
}

function ioSuffix(value: { bytes: Buffer; u: number }): number | string {
  return Number.isSafeInteger(value.u) ? value.u : BigInt(`0x${value.bytes.toString('hex')}`).toString();
}

/** Reads the four IO groups at `at`; returns the offset after them. */
function readIo(buf: Buffer, at: number, wideIds: boolean, out: IoOut): number {
  let pos = at;
  const driverBytes = new Map<number, Buffer>();
  for (const size of GROUP_SIZES) {
    const count = buf.readUInt8(pos++);
    for (let i = 0; i < count; i++) {
      const id = wideIds ? buf.readUInt16BE(pos) : buf.readUInt8(pos);
      pos += wideIds ? 2 : 1;
      const value = readIoValue(buf, pos, size);
      pos += size;
      const reader = RUPTELA_IO.get(id);
      if (reader) reader(value, out);
      else if (RUPTELA_DRIVER_PARTS.some((pair) => pair.includes(id))) driverBytes.set(id, value.bytes);
      else out.attributes[`io${id}`] = ioSuffix(value);
    }
  }
  for (const [first, second] of RUPTELA_DRIVER_PARTS) {
    const a = driverBytes.get(first);
    const b = driverBytes.get(second);
    if (a && b) out.attributes.driverUniqueId = Buffer.concat([a, b]).toString('latin1').replace(/\0/g, '').trim();
  }
  return pos;
}

function take(attributes: DecodedPosition['attributes'], key: string): number | null {
  const v = attributes[key];
  delete attributes[key];
  return typeof v === 'number' ? v : null;
}

/** Records of command 1 (`extended` false) or 68 (`extended` true); `data` starts at "records left". */
export function decodeRuptelaRecords(data: Buffer, extended: boolean, deviceId: string): RuptelaRecords {
  const count = data.readUInt8(1);
  const positions: DecodedPosition[] = [];
  /** Alarms per position (a merged record adds to those of the record before). */
  const alarmsOf = new Map<DecodedPosition, string[]>();
  let state: DecodedPosition['attributes'] | null = null;
  let stateTime: Date | null = null;
  let stateAlarms: string[] = [];
  let at = 2;
  for (let i = 0; i < count; i++) {
    const time = data.readUInt32BE(at) * 1000;
    at += 5; // time, time extension
    let mergeInto: DecodedPosition | undefined;
    if (extended) {
      const ext = data.readUInt8(at++);
      const current = ext & 0x0f;
      if (current > 0 && current <= ext >> 4) mergeInto = positions[positions.length - 1];
    }
    at += 1; // priority
    const longitude = data.readInt32BE(at);
    const latitude = data.readInt32BE(at + 4);
    const altitude = data.readUInt16BE(at + 8) / 10;
    const course = data.readUInt16BE(at + 10) / 100;
    const satellites = data.readUInt8(at + 12);
    const speed = data.readUInt16BE(at + 13) * KNOTS_PER_KMH;
    const hdop = data.readUInt8(at + 15) / 10;
    at += 16;
    const event = extended ? data.readUInt16BE(at) : data.readUInt8(at);
    at += extended ? 2 : 1;
    const out: IoOut = mergeInto
      ? { attributes: mergeInto.attributes, alarms: alarmsOf.get(mergeInto)! }
      : { attributes: { event }, alarms: [] };
    at = readIo(data, at, extended, out);
    if (mergeInto) continue;
    const attributes = out.attributes;
    if (longitude === NO_FIX || latitude === NO_FIX) {
      state = attributes;
      stateTime = time > 0 ? new Date(time) : null;
      stateAlarms = out.alarms;
      continue;
    }
    const position: DecodedPosition = {
      deviceId,
      fixTime: new Date(time),
      valid: true,
      latitude: latitude / 1e7,
      longitude: longitude / 1e7,
      speed,
      course,
      altitude,
      satellites,
      hdop,
      alarm: null,
      attributes,
    };
    positions.push(position);
    alarmsOf.set(position, out.alarms);
  }
  const alarms: string[] = [];
  for (const p of positions) {
    // once merged records have added theirs, the IO values positions.v1 has columns for move there
    const ignition = p.attributes.ignition;
    delete p.attributes.ignition;
    p.ignition = typeof ignition === 'boolean' ? ignition : null;
    p.power = take(p.attributes, 'power');
    p.battery = take(p.attributes, 'battery');
    p.odometer = take(p.attributes, 'odometer');
    const own = alarmsOf.get(p)!;
    p.alarm = own.length ? own.join(',') : null;
    for (const a of own) if (!alarms.includes(a)) alarms.push(a);
  }
  if (positions.length) return { positions, state: null, stateTime: null, alarms };
  return { positions, state, stateTime, alarms: state ? stateAlarms : [] };
}
