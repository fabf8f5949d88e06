import { DecodeError, type DecodeResult } from '../protocol';
import { Alarms, commandResult, ignoredResult, positionOf, positionsResult, type Attributes, type Fix } from '../result';
import type { SealSession } from './seal';

/**
 * Text messages `(id,TYPE,...)` of the Jointech devices (facts from Jointech's JT701 protocol, its
 * published parser, and Traccar's Jt600ProtocolDecoder patterns):
 * - P45 lock event: date, time, latitude, N/S, longitude, E/W, A/V, speed (mph), course, event
 *   source, unlock verification, RFID card, password verification, wrong password count, serial
 *   [, mileage]; answered `(P69,0,<serial>)`. Jointech defines the verification fields of event
 *   sources 4 (password: 0 = wrong) and 6 (dynamic password: 0 = wrong, 1-10 = unlocked in that
 *   area, 98 = unlocked, 99 = refused outside an area): those become `unlock` or `tampering`
 *   (sealEvent `unlocked`, `wrongPassword`) or sealEvent `unlockRefused`; other sources keep their
 *   code in `event` and carry no seal event;
 * - U01/U02/U03/U06 status reports (JT600 family: speed in mph, odometer km), answered `(S39)`/`(S20)`;
 * - W01 report (longitude DDDMM.mmmm first, speed km/h);
 * - `@JT` and U04 → heartbeat; any other `(id,P..,...)` → command result (the text); the rest refused.
 */
const KNOTS_PER_MPH = 0.868976;
const KNOTS_PER_KMH = 1 / 1.852;

const U_REPORT =
  /^\((\d+),(U0[1236]),(?:\d+,)?(\d\d)(\d\d)(\d\d),(\d\d)(\d\d)(\d\d),([TF]),(\d+\.\d+),([NS]),(\d+\.\d+),([EW]),(\d+\.?\d*),(\d+),(\d+),(\d+)%,([01]+),(\d+),(\d+),(\d+),(\d+),(\d+)/;
const W01 =
  /^\((\d+),W01,(\d{3})(\d\d\.\d+),([EW]),(\d\d)(\d\d\.\d+),([NS]),([AV]),(\d\d)(\d\d)(\d\d),(\d\d)(\d\d)(\d\d),(\d+),(\d+),(\d+),(\d+),(\d+),(\d+)/;

function utc(d: string, mo: string, y: string, h: string, mi: string, s: string): Date | null {
  const t = Date.UTC(2000 + Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const date = new Date(t);
  return Number(mo) >= 1 && Number(mo) <= 12 && date.getUTCDate() === Number(d) && Number(h) < 24 && Number(mi) < 60 && Number(s) < 60
    ? date
    : null;
}

function signed(value: number, hemisphere: string): number {
  return hemisphere === 'S' || hemisphere === 'W' ? -value : value;
}

/** The seal event a P45 report describes, from its event source and verification fields. */
function lockEvent(source: number, unlock: number, password: number): { alarm: string | null; sealEvent: string } | null {
  if (source === 6) {
    if (unlock === 0) return { alarm: 'tampering', sealEvent: 'wrongPassword' };
    if (unlock === 99) return { alarm: null, sealEvent: 'unlockRefused' };
    if ((unlock >= 1 && unlock <= 10) || unlock === 98) return { alarm: 'unlock', sealEvent: 'unlocked' };
    return null;
  }
  if (source === 4) return password === 0 ? { alarm: 'tampering', sealEvent: 'wrongPassword' } : { alarm: 'unlock', sealEvent: 'unlocked' };
  return null;
}

function p45(f: string[], deviceId: string, session: SealSession): DecodeResult {
  if (f.length < 17) throw new DecodeError('truncated', `jt701: P45 with ${f.length} fields`);
  const [date = '', time = ''] = [f[2], f[3]];
  const fixTime = utc(date.slice(0, 2), date.slice(2, 4), date.slice(4, 6), time.slice(0, 2), time.slice(2, 4), time.slice(4, 6));
  const numbers = [f[4], f[6], f[9], f[10], f[11], f[12], f[14], f[15], f[16]].map(Number);
  if (!fixTime || !/^\d{6}$/.test(date) || !/^\d{6}$/.test(time) || numbers.some((n) => !Number.isFinite(n))) {
    throw new DecodeError('malformed', 'jt701: P45 fields are not numbers');
  }
  const [lat, lon, mph, course, source, unlock, password, wrongCount, serial] = numbers as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const attributes: Attributes = { event: source, index: serial, wrongPasswords: wrongCount };
  if (f[13] && f[13] !== '0000000000') attributes.driverUniqueId = f[13];
  const alarms = new Alarms();
  const seal = lockEvent(source, unlock, password);
  if (seal) {
    alarms.add(seal.alarm);
    attributes.sealEvent = seal.sealEvent;
    if (seal.sealEvent === 'unlocked') {
      attributes.lock = false;
      session.jt701Locked = false;
      if (unlock >= 1 && unlock <= 10) attributes.geofenceId = unlock;
    }
  }
  const fix: Fix = {
    fixTime,
    valid: f[8] === 'A',
    latitude: signed(lat, f[5] ?? 'N'),
    longitude: signed(lon, f[7] ?? 'E'),
    speed: mph * KNOTS_PER_MPH,
    course,
  };
  const o = { type: 'P45', crcValid: true, deviceId, ack: Buffer.from(`(P69,0,${serial})`) };
  return positionsResult([positionOf(fix, attributes, alarms, deviceId)], o);
}

function uReport(m: RegExpExecArray, deviceId: string): DecodeResult {
  const [, , type, d, mo, y, h, mi, s, validity, lat, ns, lon, ew, mph, course, sats, battery, status, cid, lac, gsm, odometer, serial] =
    m as unknown as string[];
  const fixTime = utc(d!, mo!, y!, h!, mi!, s!);
  const o = { type: type!, crcValid: true, deviceId, ack: Buffer.from(type === 'U06' ? '(S20)' : '(S39)') };
  const attributes: Attributes = {
    sat: Number(sats),
    batteryLevel: Number(battery),
    status: parseInt(status!, 2),
    cid: Number(cid),
    lac: Number(lac),
    rssi: Number(gsm),
    odometer: Number(odometer) * 1000,
    index: Number(serial),
  };
  if (!fixTime) return ignoredResult('report without a valid date', o);
  const fix: Fix = {
    fixTime,
    valid: validity === 'T',
    latitude: signed(Number(lat), ns!),
    longitude: signed(Number(lon), ew!),
    speed: Number(mph) * KNOTS_PER_MPH,
    course: Number(course),
  };
  return positionsResult([positionOf(fix, attributes, new Alarms(), deviceId)], o);
}

function w01(m: RegExpExecArray, deviceId: string): DecodeResult {
  const [, , lonDeg, lonMin, ew, latDeg, latMin, ns, validity, d, mo, y, h, mi, s, kmh, course, power, gps, gsm, alert] =
    m as unknown as string[];
  const fixTime = utc(d!, mo!, y!, h!, mi!, s!);
  const o = { type: 'W01', crcValid: true, deviceId };
  if (!fixTime) return ignoredResult('report without a valid date', o);
  const fix: Fix = {
    fixTime,
    valid: validity === 'A',
    latitude: signed(Number(latDeg) + Number(latMin) / 60, ns!),
    longitude: signed(Number(lonDeg) + Number(lonMin) / 60, ew!),
    speed: Number(kmh) * KNOTS_PER_KMH,
    course: Number(course),
  };
  const attributes: Attributes = { power: Number(power), gps: Number(gps), rssi: Number(gsm), alertType: Number(alert) };
  return positionsResult([positionOf(fix, attributes, new Alarms(), deviceId)], o);
}

export function decodeJt701Text(frame: Buffer, session: SealSession & { deviceId?: string }): DecodeResult {
  const text = frame.toString('latin1');
  const fields = text.slice(1, -1).split(',');
  const id = fields[0] ?? '';
  if (!/^\d{1,20}$/.test(id)) throw new DecodeError('bad_id', `jt701: text message without a device id (${text.slice(0, 24)})`);
  session.deviceId = id;
  const type = fields[1] ?? '';
  if (type === 'P45') return p45(fields, id, session);
  const u = U_REPORT.exec(text);
  if (u) return uReport(u, id);
  const w = W01.exec(text);
  if (w) return w01(w, id);
  const o = { type: /^[A-Z@][A-Z0-9]{1,4}$/.test(type) ? type : 'text', crcValid: true, deviceId: id };
  if (type === '@JT' || type === 'U04') return { kind: 'heartbeat', positions: [], ...o };
  if (/^P\d\d$/.test(type)) return commandResult(text, o);
  return ignoredResult('text message type not supported', o);
}
