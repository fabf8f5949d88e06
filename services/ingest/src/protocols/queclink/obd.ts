import type { Attributes } from '../result';
import { int, num } from './fields';

/**
 * GTOBD: the OBD-II report of the GV500 family (the field order Traccar's Gl200TextProtocolDecoder
 * reads): `<VIN>,<device name>,<report type>,<report mask>` and, with the mask's low 16 bits all set
 * (every report in the public captures), `<VIN>,<OBD connected>,<OBD voltage mV>,<supported PIDs>,
 * <rpm>,<speed km/h>,<coolant °C>,<fuel consumption>,<distance since codes cleared>,<reserved>,
 * <OBD connected>,<number of codes>,<codes>,<throttle %>,<engine load %>,<fuel level %>` then, before
 * the location, an optional `<OBD protocol>,<OBD mileage km>`. The location (blocks.ts) and the
 * device mileage after it are read as in every report.
 */
const FULL = 0xffff;

export function readObd(v: readonly string[], firstBlock: number): Attributes {
  const attributes: Attributes = {};
  const vin = v[3];
  if (vin && /^[0-9A-Z]{17}$/.test(vin)) attributes.vin = vin;
  const mask = /^[0-9A-Fa-f]{1,8}$/.test(v[6] ?? '') ? parseInt(v[6]!, 16) : 0;
  if ((mask & FULL) !== FULL || firstBlock < 23) return attributes;
  const f = (i: number) => v[7 + i];
  const numbers: [string, number | null][] = [
    ['power', int(f(2)) === null ? null : int(f(2))! / 1000],
    ['rpm', int(f(4))],
    ['obdSpeed', int(f(5))],
    ['coolantTemp', int(f(6))],
    ['fuelConsumption', num(f(7))],
    ['throttle', int(f(13))],
    ['engineLoad', int(f(14))],
    ['fuel', int(f(15))],
  ];
  for (const [key, value] of numbers) if (value !== null) attributes[key] = value;
  const codes = f(12);
  if (codes && /^[0-9A-Fa-f]+$/.test(codes)) attributes.dtcs = codes;
  // <OBD protocol>,<OBD mileage km> before the location when both are there
  if (firstBlock - (7 + 16) === 2) {
    const km = int(v[firstBlock - 1]);
    if (km !== null) attributes.obdOdometer = km * 1000;
  }
  return attributes;
}
