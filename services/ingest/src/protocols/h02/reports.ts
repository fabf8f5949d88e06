import type { Attributes } from '../result';
import { Alarms } from '../result';
import { decodeStatus } from './status';
import type { TextFields } from './text';
import { utcFromText } from '../text-time';

/**
 * H02 reports without a fix (facts from the H02 document and Traccar's H02ProtocolDecoder). Each
 * becomes device state (attributes under Traccar's keys, the status word's alarms) with the time
 * the device stamped:
 * - NBR: hhmmss, mcc, mnc, gsm delay, count, (lac, cid, rssi) × count, ddmmyy, status;
 * - LINK: hhmmss, rssi, satellites, battery %, steps, turnovers, ddmmyy, status;
 * - V3: hhmmss, mcc+mnc (3 + rest digits), count, (lac, cid, ?, dBm) × count, battery (4 hex,
 *   unit not documented: kept as `batteryRaw`), reboot info, X, ddmmyy, status;
 * - VP1 without a fix: V, mcc, mnc, `lac,cid,rssi` cells separated by Y;
 * - HTBT: battery level %.
 */
export interface H02State {
  attributes: Attributes;
  alarms: Alarms;
  time: Date | null;
}

const HEX8 = /^[0-9A-Fa-f]{8}$/;
const integer = (v: string | undefined): boolean => v !== undefined && /^-?\d+$/.test(v.trim());

function withStatus(state: H02State, statusText: string | undefined): H02State {
  if (statusText && HEX8.test(statusText)) {
    const status = decodeStatus(parseInt(statusText, 16));
    state.attributes.status = status.status;
    state.attributes.ignition = status.ignition;
    state.alarms.add(status.alarm);
  }
  return state;
}

/** Cells as `[lac, cid, ...]` field groups; the signal is the group's `rssiAt` field (0 when empty). */
function cellList(mcc: number, mnc: number, groups: string[][], rssiAt = 2): Attributes {
  const cells = groups.map((g) => `${mcc}/${mnc}/${Number(g[0])}/${Number(g[1])}/${integer(g[rssiAt]) ? Number(g[rssiAt]) : 0}`);
  const [first] = groups;
  const a: Attributes = { mcc, mnc };
  if (first) Object.assign(a, { lac: Number(first[0]), cid: Number(first[1]) });
  if (cells.length) a.cells = cells.join(' ');
  return a;
}

export function decodeNbr({ fields }: TextFields): H02State | null {
  // fields: maker, id, NBR, hhmmss, mcc, mnc, gsm delay, count, cells..., ddmmyy, status
  const count = Number(fields[7]);
  if (!Number.isInteger(count) || count < 0 || fields.length < 8 + count * 3 + 2 || !integer(fields[4]) || !integer(fields[5])) return null;
  const triples = Array.from({ length: count }, (_, i) => fields.slice(8 + i * 3, 11 + i * 3));
  if (!triples.every((t) => t.every(integer))) return null;
  const after = 8 + count * 3;
  const state = {
    attributes: cellList(Number(fields[4]), Number(fields[5]), triples),
    alarms: new Alarms(),
    time: utcFromText(fields[after] ?? '', fields[3] ?? ''),
  };
  return withStatus(state, fields[after + 1]);
}

export function decodeLink({ fields }: TextFields): H02State | null {
  if (fields.length < 11) return null;
  const numbers = fields.slice(4, 9).map(Number);
  if (numbers.some((n) => !Number.isInteger(n))) return null;
  const [rssi, satellites, batteryLevel, steps, turnovers] = numbers as [number, number, number, number, number];
  const state = {
    attributes: { rssi, sat: satellites, batteryLevel, steps, turnovers },
    alarms: new Alarms(),
    time: utcFromText(fields[9] ?? '', fields[3] ?? ''),
  };
  return withStatus(state, fields[10]);
}

export function decodeV3({ fields }: TextFields): H02State | null {
  // fields: maker, id, V3, hhmmss, mccmnc, count, cells (4 each)..., battery, reboot, X, ddmmyy, status
  const code = fields[4] ?? '';
  const count = Number(fields[5]);
  if (!/^\d{4,6}$/.test(code) || !Number.isInteger(count) || count < 0 || fields.length < 6 + count * 4 + 5) return null;
  const quads = Array.from({ length: count }, (_, i) => fields.slice(6 + i * 4, 10 + i * 4));
  if (!quads.every((q) => integer(q[0]) && integer(q[1]))) return null;
  const after = 6 + count * 4;
  const attributes = cellList(Number(code.slice(0, 3)), Number(code.slice(3)), quads, 3); // the 4th field is the signal in dBm
  const battery = fields[after] ?? '';
  if (/^[0-9A-Fa-f]{4}$/.test(battery)) attributes.batteryRaw = parseInt(battery, 16);
  const state = { attributes, alarms: new Alarms(), time: utcFromText(fields[after + 3] ?? '', fields[3] ?? '') };
  return withStatus(state, fields[after + 4]);
}

/** VP1 `V,<mcc>,<mnc>,<lac,cid,rssi>Y<lac,cid,rssi>...` (no fix). */
export function decodeVp1Cells({ fields }: TextFields): H02State | null {
  if (fields[3] !== 'V' || !integer(fields[4]) || !integer(fields[5])) return null;
  const cells = fields
    .slice(6)
    .join(',')
    .split('Y')
    .map((c) => c.split(','));
  if (!cells.every((c) => c.length >= 3 && c.slice(0, 3).every(integer))) return null;
  return { attributes: cellList(Number(fields[4]), Number(fields[5]), cells), alarms: new Alarms(), time: null };
}

/** HTBT `<battery level>` (the heartbeat also gets its echo as the acknowledgement). */
export function decodeHtbt({ fields }: TextFields): H02State {
  const level = fields[3];
  return { attributes: integer(level) ? { batteryLevel: Number(level) } : {}, alarms: new Alarms(), time: null };
}
