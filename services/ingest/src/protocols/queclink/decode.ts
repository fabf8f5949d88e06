import { DecodeError, type DecodedPosition, type DecodeResult, type ProtocolSession } from '../protocol';
import { Alarms, commandResult, ignoredResult, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import { hours, LOCATION_FIELDS, num, readLocation, readStatus, time, type Location } from './fields';
import { familyOf, MOTION_STATES, QUECLINK_REPORTS, type Family, type Layout } from './messages';

/**
 * Queclink @Track ASCII messages (GV300, GV55, GL300 families; layouts in messages.ts):
 * - `+RESP`/`+BUFF` reports → positions (`+BUFF`: stored while offline → `archive`), or a state record
 *   when no block holds a fix; alarms as Traccar names; answered `+SACK:<count>$` (devices with SACK
 *   enabled resend what was not acknowledged);
 * - `GTINF` → state record (ICCID, signal, power, battery, charging, ignition and motion);
 * - `GTPNA`/`GTPFA` → state record with `powerOn`/`powerOff`;
 * - `+ACK:GTHBD` heartbeat → answered `+SACK:GTHBD,<version>,<count>$`; other `+ACK` → command result;
 * - reports of other models, and other report types, are refused with the reason (not acknowledged).
 */
const HEADER = /^\+(RESP|BUFF|ACK):GT([A-Z0-9]{3})$/;
const IMEI = /^(\d{15}|[0-9A-Fa-f]{14})$/;
const BLOCK_START = 4;
const MAX_BLOCKS = 50;

interface Parsed {
  v: string[];
  kind: string;
  type: string;
  version: string;
  imei: string;
  text: string;
}

function parse(frame: Buffer): Parsed {
  const text = frame.toString('latin1');
  const v = (text.endsWith('$') ? text.slice(0, -1) : text).split(',');
  const m = HEADER.exec(v[0] ?? '');
  if (!m || v.length < 4) throw new DecodeError('malformed', `queclink: not an @Track message (${text.slice(0, 24)})`);
  const imei = v[2] ?? '';
  if (!IMEI.test(imei)) throw new DecodeError('bad_id', `queclink: no IMEI in ${text.slice(0, 40)}`);
  return { v, kind: m[1]!, type: m[2]!, version: v[1] ?? '', imei, text };
}

/** The tail's attributes by family (see messages.ts). */
function readTail(tail: readonly string[], layout: Layout, family: Family, attributes: Attributes): void {
  const gl = family === 'GL300';
  const setOdometer = (km: string | undefined) => {
    const value = num(km);
    if (value !== null && km?.includes('.')) attributes.odometer = Math.round(value * 1000);
  };
  const setBattery = (pct: string | undefined) => {
    const value = num(pct);
    if (value !== null && Number.isInteger(value) && value <= 100) attributes.batteryLevel = value;
  };
  if (layout.tail === 'ign') {
    const h = hours(tail[0]);
    if (h !== null) attributes.hours = h;
    setOdometer(tail[1]);
  } else if ((layout.tail === 'fri' || layout.tail === 'event') && gl) {
    setBattery(tail[0]);
  } else if (layout.tail === 'event') {
    setOdometer(tail[0]);
  } else if (layout.tail === 'fri') {
    const [mileage, hourMeter, adc1, adc2, battery, status] = tail;
    setOdometer(mileage);
    const h = hours(hourMeter);
    if (h !== null) attributes.hours = h;
    for (const [key, value] of [['adc1', adc1], ['adc2', adc2]] as const) {
      const mv = num(value);
      if (mv !== null) attributes[key] = mv / 1000;
    }
    setBattery(battery);
    readStatus(status, attributes);
  }
}

function alarmOf(layout: Layout, reportType: number): string | null {
  if (typeof layout.alarm === 'function') return layout.alarm(reportType);
  return layout.alarm ?? null;
}

/** A report with a location layout (`blocks` or `single`) or none. */
function report(p: Parsed, family: Family, layout: Layout, o: { type: string; crcValid: boolean; deviceId: string; ack?: Buffer }): DecodeResult {
  const { v } = p;
  const end = v.length - 2; // send time, count
  const attributes: Attributes = {};
  const locations: Location[] = [];
  let after = BLOCK_START;
  let reportType = 0;
  if (layout.location === 'blocks') {
    const [a, b, n] = [v[BLOCK_START], v[BLOCK_START + 1], num(v[BLOCK_START + 2])];
    if (n === null || !Number.isInteger(n) || n < 1 || n > MAX_BLOCKS) throw new DecodeError('malformed', `queclink: GT${p.type} without a position count`);
    after = BLOCK_START + 3 + n * LOCATION_FIELDS;
    if (after > end) throw new DecodeError('truncated', `queclink: GT${p.type} shorter than its ${n} positions`);
    for (let i = 0; i < n; i++) locations.push(readLocation(v, BLOCK_START + 3 + i * LOCATION_FIELDS));
    reportType = b && /^[0-9A-Fa-f]{1,2}$/.test(b) ? parseInt(b, 16) : 0;
    const power = num(a);
    if (family !== 'GL300' && power !== null && power > 10) attributes.power = power / 1000;
  } else if (layout.location === 'single') {
    after = BLOCK_START + layout.head + LOCATION_FIELDS;
    if (after > end) throw new DecodeError('truncated', `queclink: GT${p.type} shorter than its position`);
    locations.push(readLocation(v, BLOCK_START + layout.head));
    const head = v[BLOCK_START];
    if (p.type === 'STT' && head && /^[0-9A-Fa-f]{2}$/.test(head)) Object.assign(attributes, MOTION_STATES[parseInt(head, 16)] ?? {});
    if (p.type === 'BPL' && num(head) !== null) attributes.battery = num(head);
  }
  readTail(v.slice(after, end), layout, family, attributes);
  if (layout.ignition !== undefined) attributes.ignition = layout.ignition;
  if (p.kind === 'BUFF') attributes.archive = true;
  const alarms = new Alarms();
  alarms.add(alarmOf(layout, reportType));

  const fixes = locations.filter((l) => l.fix);
  if (!fixes.length) {
    const state: Attributes = { ...locations.reduce((acc, l) => ({ ...acc, ...l.attributes }), {}), ...attributes };
    return stateResult(state, alarms, { ...o, deviceTime: time(v[end]) });
  }
  const positions: DecodedPosition[] = fixes.map((l, i) => {
    const last = i === fixes.length - 1;
    const attrs: Attributes = last ? { ...l.attributes, ...attributes } : { ...l.attributes, ...(p.kind === 'BUFF' ? { archive: true } : {}) };
    return positionOf(l.fix!, attrs, last ? alarms : new Alarms(), p.imei);
  });
  return positionsResult(positions, o);
}

/** GTINF: motion state, ICCID, signal, [external power mV | odometer km], backup battery V, charging. */
function info(p: Parsed, o: { type: string; crcValid: boolean; deviceId: string; ack?: Buffer }): DecodeResult {
  const { v } = p;
  const attributes: Attributes = {};
  const state = v[4] && /^[0-9A-Fa-f]{2}$/.test(v[4]) ? MOTION_STATES[parseInt(v[4], 16)] : undefined;
  if (state) Object.assign(attributes, state);
  if (v[5]) attributes.iccid = v[5];
  const rssi = num(v[6]);
  if (rssi !== null) attributes.rssi = rssi;
  const powerOrOdometer = num(v[9]);
  if (powerOrOdometer !== null) {
    if (v[9]!.includes('.')) attributes.odometer = Math.round(powerOrOdometer * 1000);
    else attributes.power = powerOrOdometer / 1000;
  }
  const battery = num(v[11]);
  if (battery !== null) attributes.battery = battery;
  if (v[12] === '1') attributes.charge = true;
  else if (v[12] === '0') attributes.charge = false;
  return stateResult(attributes, new Alarms(), { ...o, deviceTime: time(v[v.length - 2]) });
}

export function decodeQueclink(frame: Buffer, session: ProtocolSession): DecodeResult {
  const p = parse(frame);
  session.deviceId = p.imei;
  const count = p.v[p.v.length - 1] ?? '';
  const o = { type: `GT${p.type}`, crcValid: true, deviceId: p.imei };
  if (p.kind === 'ACK') {
    if (p.type === 'HBD') return { kind: 'heartbeat', positions: [], ...o, ack: Buffer.from(`+SACK:GTHBD,${p.version},${count}$`) };
    return commandResult(p.text.replace(/\$$/, ''), o);
  }
  const family = familyOf(p.version);
  if (!family) return ignoredResult(`model not supported (protocol version ${p.version || 'missing'})`, o);
  const withAck = { ...o, ...(/^[0-9A-Fa-f]{4}$/.test(count) ? { ack: Buffer.from(`+SACK:${count}$`) } : {}) };
  if (p.type === 'INF') return info(p, withAck);
  const layout = QUECLINK_REPORTS[p.type];
  if (!layout) return ignoredResult(`message type not supported for ${family}`, o);
  try {
    return report(p, family, layout, withAck);
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    throw new DecodeError(err instanceof RangeError ? 'truncated' : 'malformed', `queclink: GT${p.type}: ${(err as Error).message}`);
  }
}
