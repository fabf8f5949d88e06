import type { Attributes } from '../result';

/** Field readers shared by the @Track reports (Queclink's @Track air interface protocols). */
const NUMBER = /^-?\d+(\.\d+)?$/;

export function num(value: string | undefined): number | null {
  return value !== undefined && NUMBER.test(value) ? Number(value) : null;
}

/** An integer field, or null. */
export function int(value: string | undefined): number | null {
  return value !== undefined && /^-?\d{1,9}$/.test(value) ? Number(value) : null;
}

/** YYYYMMDDhhmmss UTC, or null when the field is not a date. */
export function time(value: string | undefined): Date | null {
  const m = value ? /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(value) : null;
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  return mo >= 1 && mo <= 12 && date.getUTCDate() === d && h < 24 && mi < 60 && s < 60 ? date : null;
}

/** The 6-hex device status: ignition (state byte bit 5 on, bit 4 off), digital inputs and outputs. */
export function readStatus(value: string | undefined, attributes: Attributes): boolean {
  if (!value || !/^[0-9A-Fa-f]{6}$/.test(value)) return false;
  const word = parseInt(value, 16);
  const state = word >> 16;
  if (state & 0x20) attributes.ignition = true;
  else if (state & 0x10) attributes.ignition = false;
  const input = (word >> 8) & 0xff;
  const output = word & 0xff;
  Object.assign(attributes, {
    input,
    output,
    in1: (input & 0x02) !== 0,
    in2: (input & 0x04) !== 0,
    out1: (output & 0x01) !== 0,
    out2: (output & 0x02) !== 0,
  });
  return true;
}

/** Hour meter `hhhhh:mm:ss` → Traccar's `hours` (milliseconds). */
export function hours(value: string | undefined): number | null {
  const m = value ? /^(\d{1,7}):(\d\d):(\d\d)$/.exec(value) : null;
  return m ? ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3])) * 1000 : null;
}

/** A mileage in km (`34.9`) → metres, or null. */
export function kilometres(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,8}\.\d{1,2}$/.test(value) ? Math.round(Number(value) * 1000) : null;
}

/** GTINF / GTSTT motion state → ignition and motion (Queclink's state codes). */
export const MOTION_STATES: Readonly<Record<number, { ignition?: boolean; motion: boolean }>> = {
  0x11: { ignition: false, motion: false },
  0x12: { ignition: false, motion: true },
  0x16: { ignition: false, motion: true },
  0x1a: { ignition: false, motion: true },
  0x21: { ignition: true, motion: false },
  0x22: { ignition: true, motion: true },
  0x41: { motion: false },
  0x42: { motion: true },
};
