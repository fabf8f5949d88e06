import type { Attributes } from '../result';
import type { Model } from './models';

/**
 * GTCAN: the vehicle's CAN bus data (Queclink's GV300W/GV350M/GV65/GV58 CAN reports; the field
 * order is the one Traccar's Gl200TextProtocolDecoder reads). After `<device name>,<report type>,
 * <CAN bus state>,<report mask hex>` come the fields whose mask bit is set, in this order. Bit 29
 * adds an expansion mask with further fields, whose bit 31 adds a third mask; bit 30 a location
 * (read by blocks.ts), bit 31 the cell. The GV350M and GV355CEU have model-specific fields after
 * bit 21. Reading stops at the first field that does not have its shape, keeping what came before.
 */
/** The value; null when the field does not have its shape (reading stops); undefined: read, not kept. */
type Reader = (value: string) => string | number | boolean | null | undefined;

const integer: Reader = (v) => (/^-?\d+$/.test(v) ? Number(v) : null);
const decimal: Reader = (v) => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : null);
const hex: Reader = (v) => (/^[0-9A-Fa-f]{1,8}$/.test(v) ? parseInt(v, 16) : null);
const text: Reader = (v) => v;
/** A value behind a one-letter unit or kind prefix (`H149381`, `P94.80`). */
const prefixed: Reader = (v) => (/^[A-Z]-?\d+(\.\d+)?$/.test(v) ? Number(v.slice(1)) : null);
const skip = null;

/** bit → [Traccar key, reader]; `skip` fields are consumed and not kept. */
type Field = readonly [key: string, read: Reader] | typeof skip;

const MAIN: readonly Field[] = [
  ['vin', text],
  ['ignition', (v) => (integer(v) === null ? null : Number(v) > 0)],
  ['obdOdometer', prefixed],
  ['fuelUsed', decimal],
  // bit 4 (speed) is sent after bit 5 (rpm): swapped below
  ['obdSpeed', integer],
  ['rpm', integer],
  ['coolantTemp', integer],
  // L/H<n>: litres per hour; the other units a vehicle reports (`M`, `H`) are not Traccar's
  ['fuelConsumption', (v) => (/^L\/H-?\d+(\.\d+)?$/.test(v) ? Number(v.slice(3)) : /^[A-Z]/.test(v) ? undefined : null)],
  ['fuel', prefixed],
  ['range', (v) => (integer(v) === null ? null : Number(v) * 100)],
  ['throttle', integer],
  ['hours', (v) => (decimal(v) === null ? null : Math.round(Number(v) * 3_600_000))],
  ['drivingTime', decimal],
  ['idleHours', decimal],
  ['idleFuelConsumption', decimal],
  ['axleWeight', integer],
  ['tachographInfo', hex],
  ['indicators', hex],
  ['lights', hex],
  ['doors', hex],
  ['vehicleOverspeed', decimal],
  ['engineOverspeed', decimal],
];
const ORDER = [0, 1, 2, 3, 5, 4, ...Array.from({ length: 16 }, (_, i) => i + 6)];
/** Model fields after bit 21: how many of bits 22.. each takes one field for. */
const MODEL_BITS: Readonly<Record<string, number>> = { GV350M: 3, GV355CEU: 7 };

const EXPANSION: Readonly<Record<number, Field>> = {
  0: ['adBlueLevel', prefixed],
  1: ['axleWeight1', integer],
  2: ['axleWeight3', integer],
  3: ['axleWeight4', integer],
  7: ['adc1', (v) => (integer(v) === null ? null : Number(v) / 1000)],
  15: ['driver1Card', text],
  16: ['driver2Card', text],
  17: ['driver1Name', text],
  18: ['driver2Name', text],
  19: ['registration', text],
};

class Cursor {
  constructor(
    private readonly v: readonly string[],
    public at: number,
    private readonly attributes: Attributes,
  ) {}
  /** Reads one field with `field`; false when its shape is wrong (reading stops). */
  take(field: Field): boolean {
    const value = this.v[this.at++];
    if (value === undefined) return false;
    if (!field || value === '') return true;
    const parsed = field[1](value);
    if (parsed === null) return false;
    if (parsed !== undefined) this.attributes[field[0]] = parsed;
    return true;
  }
  mask(): number | null {
    const value = this.v[this.at++] ?? '';
    return /^[0-9A-Fa-f]{1,8}$/.test(value) ? parseInt(value, 16) : null;
  }
}

const bit = (mask: number, n: number): boolean => ((mask >>> n) & 1) === 1;

/** The CAN attributes of a GTCAN report whose report mask is at `maskAt`. */
export function readCan(v: readonly string[], maskAt: number, model: Model): Attributes {
  const attributes: Attributes = {};
  const c = new Cursor(v, maskAt, attributes);
  const mask = c.mask();
  if (mask === null) return attributes;
  for (const n of ORDER) if (bit(mask, n) && !c.take(MAIN[n]!)) return attributes;
  const modelBits = MODEL_BITS[model.name] ?? 0;
  for (let n = 22; n < 22 + modelBits; n++) if (bit(mask, n)) c.at++;
  if (!bit(mask, 29)) return attributes;
  const expansion = c.mask();
  if (expansion === null) return attributes;
  for (let n = 0; n <= 30; n++) if (bit(expansion, n) && !c.take(EXPANSION[n] ?? skip)) return attributes;
  return attributes;
}
