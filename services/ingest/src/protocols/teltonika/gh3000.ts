import type { ByteReader } from '../byte-reader';
import type { DecodedPosition } from '../protocol';
import type { Attributes } from '../result';

/**
 * Codec 7: the GH3000 personal tracker's record (facts from Teltonika's GH3000 protocol
 * description as Traccar's TeltonikaProtocolDecoder reads it):
 * time(4: low 30 bits, seconds since 2007-01-01 UTC) global mask(1), then when bit 0 is set a
 * location mask(1) with optional latitude/longitude (float32 each, bit 0), altitude(2, bit 1),
 * angle(1, ×360/256, bit 2), speed(1, km/h, bit 3), satellites(1, bit 4), cell LAC + id (2 + 2,
 * bit 5), GSM signal(1, bit 6), operator(4, bit 7); then IO groups of 1, 2 and 4-byte values
 * (global mask bits 1..3), each a count(1) and id(1) + value.
 */
const GH3000_EPOCH_S = 1_167_609_600; // 2007-01-01T00:00:00Z
const KPH_PER_KNOT = 1.852;
const GROUP_SIZES = [1, 2, 4] as const;

/** GH3000 IO ids → Traccar keys (others become io<ID>). */
function applyIo(a: Attributes, alarms: string[], id: number, value: number): void {
  switch (id) {
    case 1:
      a.batteryLevel = value;
      return;
    case 2:
      a.usbConnected = value === 1;
      return;
    case 5:
      a.uptime = value;
      return;
    case 20:
      a.hdop = value / 10;
      return;
    case 21:
      a.vdop = value / 10;
      return;
    case 22:
      a.pdop = value / 10;
      return;
    case 67:
      a.battery = value / 1000;
      return;
    case 221:
      a.button = value;
      return;
    case 222:
      if (value === 1) alarms.push('sos');
      return;
    case 240:
      a.motion = value === 1;
      return;
    case 244:
      a.roaming = value === 1;
      return;
    default:
      a[`io${id}`] = value;
  }
}

export interface Gh3000Record {
  time: Date;
  /** Null when the record has no location (a state record at the last known place). */
  fix: Pick<DecodedPosition, 'latitude' | 'longitude' | 'altitude' | 'course' | 'speed' | 'satellites'> | null;
  attributes: Attributes;
  alarms: string[];
}

export function readGh3000Record(r: ByteReader): Gh3000Record {
  const time = new Date(((r.u32() & 0x3fffffff) + GH3000_EPOCH_S) * 1000);
  const globalMask = r.u8();
  const a: Attributes = {};
  const alarms: string[] = [];
  let fix: Gh3000Record['fix'] = null;
  if ((globalMask & 0x01) !== 0) {
    const mask = r.u8();
    fix = { latitude: 0, longitude: 0, altitude: null, course: 0, speed: 0, satellites: null };
    if (mask & 0x01) {
      fix.latitude = r.f32();
      fix.longitude = r.f32();
    }
    if (mask & 0x02) fix.altitude = r.u16();
    if (mask & 0x04) fix.course = (r.u8() * 360) / 256;
    if (mask & 0x08) fix.speed = r.u8() / KPH_PER_KNOT;
    if (mask & 0x10) fix.satellites = r.u8();
    if (mask & 0x20) {
      a.lac = r.u16();
      a.cid = r.u16();
    }
    if (mask & 0x40) a.rssi = r.u8();
    if (mask & 0x80) a.operator = r.u32();
    // A location mask without coordinates (or NaN floats) carries no place.
    if ((mask & 0x01) === 0 || !Number.isFinite(fix.latitude) || !Number.isFinite(fix.longitude)) fix = null;
  }
  GROUP_SIZES.forEach((size, i) => {
    if ((globalMask & (0x02 << i)) === 0) return;
    const n = r.u8();
    for (let k = 0; k < n; k++) {
      const id = r.u8();
      applyIo(a, alarms, id, r.bytes(size).readUIntBE(0, size));
    }
  });
  return { time, fix, attributes: a, alarms };
}
