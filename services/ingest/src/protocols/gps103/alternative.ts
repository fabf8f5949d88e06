import type { Attributes, Fix } from '../result';
import { KNOTS_PER_KMH, MAX_SPEED_KNOTS, utcFromText } from '../text-time';

/**
 * The alternative GPS103 format, ending in `*` (facts from Traccar's Gps103ProtocolDecoder):
 * `imei:<id>,<name>,<event>,<sensor id>,<sensor voltage>,hhmmss,ddmmyy,<rssi>,<gps status>,
 *  <lat>,<lon>,<km/h>,<course>,<altitude>,<hdop>,<satellites>,<ignition>,<charge>,<error>,*`
 * (decimal degrees; `-` fills an empty text field).
 */
export function decodeAlternative(f: string[]): { fix: Fix; attributes: Attributes } | null {
  if (f.length < 19) return null;
  const time = utcFromText(f[6] ?? '', f[5] ?? '');
  const [latitude, longitude, kmh, course, altitude, hdop, satellites] = [9, 10, 11, 12, 13, 14, 15].map((k) => Number(f[k])) as number[];
  if (time === null || [latitude, longitude, kmh, course, altitude, hdop, satellites].some((n) => !Number.isFinite(n))) return null;
  const speed = kmh! * KNOTS_PER_KMH;
  if (Math.abs(latitude!) > 90 || Math.abs(longitude!) > 180 || speed < 0 || speed > MAX_SPEED_KNOTS || course! < 0 || course! > 360)
    return null;
  const text = (v: string | undefined): string | null => (v === undefined || /^-*$/.test(v) ? null : v);
  const voltage = Number(f[4]);
  const a: Attributes = { altitude: altitude!, charge: f[17] === '1', ignition: f[16] === '1' };
  if (/^\d+$/.test(f[7] ?? '')) a.rssi = Number(f[7]);
  for (const [key, value] of [
    ['event', text(f[2])],
    ['sensorId', text(f[3])],
    ['error', text(f[18])],
  ] as const)
    if (value !== null) a[key] = value;
  if (/^\d/.test(f[4] ?? '') && Number.isFinite(voltage)) a.sensorVoltage = voltage;
  if (hdop! >= 0) a.hdop = hdop!;
  if (Number.isInteger(satellites) && satellites! >= 0) a.sat = satellites!;
  return {
    fix: { fixTime: time, valid: Number(f[8]) > 0, latitude: latitude!, longitude: longitude!, speed, course: course! },
    attributes: a,
  };
}
