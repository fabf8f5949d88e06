import { networkAttributes, type Cell } from '../network';
import type { Attributes } from '../result';
import { utcFromText } from '../text-time';

/**
 * TK103 reports without a fix (facts from Traccar's Tk103ProtocolDecoder and its public test
 * captures). Each gives device state under Traccar's keys, and the device time where it has one.
 */
export interface Tk103State {
  attributes: Attributes;
  time: Date | null;
}

const INT = /^\d+$/;
const HEXNUM = /^[0-9A-Fa-f]+$/;

/** ZC20 battery level steps → percent. */
const BATTERY_STEPS: Record<number, number> = { 6: 100, 5: 80, 4: 50, 3: 20, 2: 10 };
/** ZC20 value meaning "not measured". */
const NONE_16 = 65535;
const NONE_8 = 255;

/** `ZC20,ddmmyy,hhmmss,<level step>,<battery 0.01 V>,<power 0.1 V>,<installed>` */
export function decodeBattery(f: string[]): Tk103State | null {
  if (f.length < 6 || !f.slice(2, 5).every((v) => INT.test(v))) return null;
  const time = utcFromText(f[0]!, f[1]!);
  if (time === null) return null;
  const [level, battery, power] = [Number(f[2]), Number(f[3]), Number(f[4])];
  const attributes: Attributes = {};
  if (level !== NONE_8 && BATTERY_STEPS[level] !== undefined) attributes.batteryLevel = BATTERY_STEPS[level];
  if (battery !== NONE_16) attributes.battery = battery / 100;
  if (power !== NONE_16) attributes.power = power / 10;
  return { attributes, time };
}

/** BZ00 `,mcc,mnc,lac hex,cid hex,...`: the serving cell (the rest of the list has no fixed shape). */
export function decodeNetwork(f: string[]): Tk103State | null {
  if (!INT.test(f[0] ?? '') || !INT.test(f[1] ?? '') || !HEXNUM.test(f[2] ?? '') || !HEXNUM.test(f[3] ?? '')) return null;
  const cell: Cell = { mcc: Number(f[0]), mnc: Number(f[1]), lac: parseInt(f[2]!, 16), cid: parseInt(f[3]!, 16), rssi: 0 };
  return { attributes: networkAttributes([cell], []), time: null };
}

/**
 * Cell lists `{mcc,mnc,lac,cid}` (decimal, one per line) closed by an 8-digit field. Traccar reads
 * that field as a hex odometer; the same field closes BZ00 and BQ86 reports that carry no odometer
 * and holds flag-like values (01000000, 01000001), so it is kept as `status` text instead.
 */
export function decodeCellList(body: string): Tk103State | null {
  const cells: Cell[] = [];
  for (const m of body.matchAll(/\{(\d+),(\d+),(\d+),(\d+)\}/g)) {
    cells.push({ mcc: Number(m[1]), mnc: Number(m[2]), lac: Number(m[3]), cid: Number(m[4]), rssi: 0 });
  }
  if (!cells.length) return null;
  const attributes = networkAttributes(cells, []);
  const status = /,(\d{8})$/.exec(body.trim());
  if (status) attributes.status = status[1]!;
  return { attributes, time: null };
}

/** DW5x `mcc,mnc,lac,cid,<n>,(mac*rssi*channel,)×n,ddmmyy,hhmmss` (decimal cell). */
export function decodeLbsWifi(f: string[]): Tk103State | null {
  const count = Number(f[4]);
  if (!f.slice(0, 5).every((v) => INT.test(v)) || f.length < 7 + count) return null;
  const wifi: string[] = [];
  for (const ap of f.slice(5, 5 + count)) {
    const m = /^((?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2})\*([-+]?\d+)\*\d+$/.exec(ap);
    if (!m) return null;
    wifi.push(`${m[1]!.toLowerCase()}/${Number(m[2])}`);
  }
  const time = utcFromText(f[5 + count]!, f[6 + count]!);
  if (time === null) return null;
  const cell: Cell = { mcc: Number(f[0]), mnc: Number(f[1]), lac: Number(f[2]), cid: Number(f[3]), rssi: 0 };
  return { attributes: networkAttributes([cell], wifi), time };
}

/** ZC03 `ddmmyy,hhmmss,$<text>$`: the reply text and its time. */
export function decodeReply(rest: string): { text: string; time: Date | null } | null {
  const m = /^(\d{6}),(\d{6}),\$([\s\S]*?)(?:\$|$)/.exec(rest);
  if (!m) return null;
  return { text: m[3]!, time: utcFromText(m[1]!, m[2]!) };
}

/** BV00 `<17-character VIN>`. */
export function decodeVin(body: string): Tk103State | null {
  return /^[0-9A-Za-z]{17}$/.test(body) ? { attributes: { vin: body }, time: null } : null;
}
