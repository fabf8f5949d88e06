import type { ByteReader } from '../byte-reader';
import type { DecodedPosition } from '../protocol';
import { CODEC } from './codecs';
import { ioSpecFor, type IoElementSpec, type IoValue } from './io-elements';

/**
 * One AVL record of codec 8, 8 Extended (0x8E: 2-byte ids and counts, variable-length group) or 16
 * (2-byte ids, generation type): facts from Teltonika's "Teltonika Data Sending Protocols" page;
 * Traccar's TeltonikaProtocolDecoder reads the same layout.
 *
 * Some firmwares (Traccar's `teltonika.extended` option) add a group of 16-byte values after the
 * 8-byte group; `group16` reads it. A record is: timestamp(8, ms) priority(1) longitude(4)
 * latitude(4) altitude(2) angle(2) satellites(1) speed(2, km/h) event id(1|2) [generation
 * type(1)] total(1|2), then per group: count, then id + value.
 */
const KPH_PER_KNOT = 1.852;
const FIXED_GROUP_SIZES = [1, 2, 4, 8] as const;
const GROUP_16 = 16;

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
      if (value !== null) position.attributes[spec.key] = value;
  }
}

/** Reads one record; null when its timestamp is not a real date (garbage or an unset clock). */
export function readRecord(r: ByteReader, codec: number, deviceId: string | undefined, group16: boolean): DecodedPosition | null {
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
  if (group16) {
    const n = wide ? r.u16() : r.u8();
    for (let i = 0; i < n; i++) {
      const id = wideIds ? r.u16() : r.u8();
      position.attributes[`io${id}`] = r.bytes(GROUP_16).toString('hex');
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
  return Number.isFinite(position.fixTime.getTime()) ? position : null;
}
