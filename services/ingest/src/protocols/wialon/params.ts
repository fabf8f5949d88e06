import { networkAttributes, type Cell } from '../network';
import type { Attributes } from '../result';

/**
 * The additional parameters of a Wialon IPS data packet: `name:type:value` separated by commas
 * (type 1 integer, 2 double, 3 string; Gurtam's Wialon IPS document). Names are the device's own,
 * kept in lower case as Traccar keeps them; those Traccar gives a meaning are renamed to its keys:
 * `bat` → `batteryLevel` (%), `temp` → `deviceTemp`, and `mcc`, `mnc`, `lac`, `cell_id` (then
 * `mcc1`... up to 9 for further cells) → the serving cell and `cells`. A string that is a plain
 * number becomes one (devices send `temp:3:18`), `true`/`false` a boolean (`motion:3:false`).
 */
const PARAM = /^([^:]+):([123]):(.*)$/s;
const RENAMED: Readonly<Record<string, string>> = { bat: 'batteryLevel', temp: 'deviceTemp' };
const INTEGER = /^[-+]?\d+$/;
const DOUBLE = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;
/** A number as text without leading zeros (an id such as `0012` stays text). */
const PLAIN_NUMBER = /^-?(0|[1-9]\d{0,14})(\.\d+)?$/;

function valueOf(type: string, value: string): string | number | boolean | null {
  if (/^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  if (type === '1') {
    if (!INTEGER.test(value)) return null;
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : value;
  }
  if (type === '2') return DOUBLE.test(value) && Number.isFinite(Number(value)) ? Number(value) : null;
  return PLAIN_NUMBER.test(value) ? Number(value) : value;
}

/** The parameters as attributes, or null when one of them is not `name:type:value` of its type. */
export function readParams(text: string): Attributes | null {
  const attributes: Attributes = {};
  if (!text) return attributes;
  for (const item of text.split(',')) {
    const m = PARAM.exec(item);
    if (!m) return null;
    const name = m[1]!.trim().toLowerCase();
    const value = valueOf(m[2]!, m[3]!);
    if (!name || value === null) return null;
    attributes[RENAMED[name] ?? name] = value;
  }
  return withCells(attributes);
}

const CELL_KEYS = ['mcc', 'mnc', 'lac', 'cell_id'] as const;

/** Moves mcc/mnc/lac/cell_id, then mcc1... (until a suffix lacks one of the four) into the cell attributes. */
function withCells(a: Attributes): Attributes {
  const cells: Cell[] = [];
  const rest: Attributes = { ...a };
  for (const suffix of ['', '1', '2', '3', '4', '5', '6', '7', '8', '9']) {
    const keys = CELL_KEYS.map((k) => `${k}${suffix}`);
    const values = keys.map((k) => a[k]);
    if (!values.every((v) => typeof v === 'number')) {
      if (suffix) break;
      continue;
    }
    const [mcc, mnc, lac, cid] = values as [number, number, number, number];
    cells.push({ mcc, mnc, lac, cid, rssi: 0 });
    for (const k of keys) delete rest[k];
  }
  return { ...rest, ...networkAttributes(cells, []) };
}
