import type { DecodedPosition } from '../protocol';

/**
 * Ruptela IO elements (FM series "IO events" list as Traccar's RuptelaProtocolDecoder maps them):
 * id → reader, one data table. Values are big-endian, 1, 2, 4 or 8 bytes; ids without a reader
 * are kept as `io<id>` (unsigned). Units: power/battery V, odometer m, temperatures °C, speed km/h.
 */
export interface IoValue {
  bytes: Buffer;
  /** Unsigned value (8-byte values past 2^53 lose precision). */
  u: number;
  /** Two's complement value. */
  s: number;
}

export interface IoOut {
  attributes: DecodedPosition['attributes'];
  alarms: string[];
}

type IoReader = (v: IoValue, o: IoOut) => void;

const set =
  (key: string, scale = 1, signed = false): IoReader =>
  (v, o) =>
    void (o.attributes[key] = Math.round((signed ? v.s : v.u) * scale * 1e6) / 1e6);
const flag =
  (key: string): IoReader =>
  (v, o) =>
    void (o.attributes[key] = v.u > 0);
const alarmWhen =
  (alarm: string, test: (u: number) => boolean): IoReader =>
  (v, o) => {
    if (test(v.u) && !o.alarms.includes(alarm)) o.alarms.push(alarm);
  };
const positive = (u: number) => u > 0;

export const RUPTELA_IO: ReadonlyMap<number, IoReader> = new Map<number, IoReader>([
  [2, set('in1')],
  [3, set('in2')],
  [4, set('in3')],
  [5, set('in4')],
  [13, flag('motion')],
  [173, flag('motion')],
  [20, set('adc3')],
  [21, set('adc4')],
  [22, set('adc1')],
  [23, set('adc2')],
  [29, set('power', 0.001)],
  [30, set('battery', 0.001)],
  [32, set('deviceTemp', 1, true)],
  [34, (v, o) => void (o.attributes.driverUniqueId = v.bytes.toString('hex'))],
  [39, set('engineLoad')],
  [65, set('odometer')],
  [74, set('temp3', 0.1, true)],
  [78, set('temp0', 0.1, true)],
  [79, set('temp1', 0.1, true)],
  [80, set('temp2', 0.1, true)],
  [88, alarmWhen('jamming', positive)],
  [94, set('rpm', 0.25)],
  [95, set('obdSpeed')],
  [98, set('fuel', 100 / 255)],
  [100, set('fuelConsumption', 1 / 20)],
  [134, alarmWhen('hardBraking', positive)],
  [136, alarmWhen('hardAcceleration', positive)],
  [150, set('operator')],
  [163, set('odometer', 5)],
  [164, set('tripOdometer', 5)],
  [165, set('obdSpeed', 1 / 256)],
  [166, set('rpm', 0.125)],
  [197, set('rpm', 0.125)],
  [170, flag('charge')],
  [205, set('fuel')],
  [207, set('fuel', 0.4)],
  [208, set('fuelUsed', 0.5)],
  [251, flag('ignition')],
  [409, flag('ignition')],
  [410, alarmWhen('tow', positive)],
  [411, alarmWhen('accident', positive)],
  [415, alarmWhen('gpsAntennaCut', (u) => u === 0)],
  [645, set('obdOdometer', 1000)],
  [758, alarmWhen('tampering', (u) => u === 1)],
]);

/** Ids whose two 8-byte halves spell an ASCII driver id (CAN driver 126/127, tachograph driver 155/156). */
export const RUPTELA_DRIVER_PARTS: readonly (readonly [number, number])[] = [
  [126, 127],
  [155, 156],
];

export function readIoValue(buf: Buffer, at: number, length: number): IoValue {
  const bytes = buf.subarray(at, at + length);
  if (bytes.length !== length) throw new RangeError(`ruptela IO value of ${length} bytes past the end`);
  if (length === 8) {
    const big = bytes.readBigUInt64BE(0);
    return { bytes, u: Number(big), s: Number(bytes.readBigInt64BE(0)) };
  }
  return { bytes, u: bytes.readUIntBE(0, length), s: bytes.readIntBE(0, length) };
}
