import { DecodeError, type DecodeResult, type Protocol, type ProtocolSession } from '../protocol';
import { Alarms, ignoredResult, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import { decodeAlternative } from './alternative';
import { splitGps103Frames } from './frame';
import { keywordAlarm, keywordAttributes } from './keywords';
import { decodeObd } from './obd';
import { decodeFix, decodeNoGps } from './regular';

/**
 * GPS103 / Coban TK103-2 text protocol (Traccar default port 5001, TCP). Facts from the Coban
 * GPRS protocol notes and Traccar's Gps103Protocol/Gps103ProtocolDecoder. Message types (the
 * `type` each result names):
 * - `login` `##,imei:<id>,A;` → answered `LOAD`; `heartbeat` `<imei>;` → answered `ON` (a
 *   heartbeat glued to a report is answered and the report decoded);
 * - `F` reports (keyword `tracker`, alarms `help me`, `low battery`, `move`, `speed`, `stockade`,
 *   `ac alarm`, `door alarm`, ..., `acc on`/`acc off`, `rfid` with the driver id, `T:`, `oil`,
 *   `DTC`, numbered events): a position; `help me` is answered `**,imei:<id>,E;` so the tracker
 *   stops repeating the SOS;
 * - `L` reports (no GPS: the serving cell's lac/cid): a state record with the keyword's alarm;
 * - `OBD`: a state record (odometer, fuel consumption, hours, speed, load, coolant, throttle, rpm,
 *   battery, trouble codes) with the device time;
 * - `alt`, the alternative format ending in `*`: a position;
 * - `vr` photo data and a `vt<n>` announcement without a fix: refused (photo transfer not supported).
 */
export const PROTOCOL = 'gps103';
export const GPS103_PORT = 5001;

function o(type: string, deviceId: string | undefined, ack?: Buffer) {
  return { type, crcValid: true, deviceId, ack };
}

function decodeReport(id: string, fields: string[], ack: Buffer | undefined): DecodeResult {
  const keyword = fields[1] ?? '';
  const alarms = new Alarms();
  alarms.add(keywordAlarm(keyword));
  const attributes: Attributes = keywordAttributes(keyword);
  if (keyword === 'rfid' && fields[3]) attributes.driverUniqueId = fields[3];
  if (keyword === 'help me') ack = Buffer.from(`**,imei:${id},E;`);
  const gps = fields[4];
  if (gps === 'F') {
    const report = decodeFix(fields[2] ?? '', fields.slice(5), keyword);
    if (!report) return ignoredResult('F report whose time, coordinates or speed do not hold', o('F', id, ack));
    // the keyword is the event: `acc off` wins over an acc field still reading 1
    return positionsResult([positionOf(report.fix, { ...report.attributes, ...attributes }, alarms, id)], o('F', id, ack));
  }
  if (gps === 'L') {
    if (/^vt\d+$/.test(keyword)) return ignoredResult('photo announcement without a fix: photo transfer not supported', o('L', id, ack));
    return stateResult({ ...attributes, ...decodeNoGps(fields.slice(5)) }, alarms, o('L', id, ack));
  }
  return ignoredResult(`report with neither F nor L in the GPS field`, o('other', id, ack));
}

export function decodeGps103(frame: Buffer, session: ProtocolSession): DecodeResult {
  let sentence = frame.toString('latin1').trim();
  if (sentence.includes('imei:') && sentence.length <= 30) {
    const id = /imei:(\d+),/.exec(sentence)?.[1];
    if (id) session.deviceId = id;
    return { ...stateResult({}, new Alarms(), o('login', id ?? session.deviceId, Buffer.from('LOAD'))), kind: 'login' };
  }
  let ack: Buffer | undefined;
  if (/^\d/.test(sentence)) {
    ack = Buffer.from('ON');
    const start = sentence.indexOf('imei:');
    if (start < 0) {
      const id = /^(\d+)/.exec(sentence)?.[1];
      if (id) session.deviceId = id;
      return stateResult({}, new Alarms(), o('heartbeat', session.deviceId, ack));
    }
    sentence = sentence.slice(start);
  }
  const alternative = sentence.endsWith('*');
  const fields = sentence.replace(/[;*]$/, '').split(',');
  const id = /^imei:(\d+)$/.exec(fields[0] ?? '')?.[1];
  if (!id) throw new DecodeError('malformed', 'gps103: frame without imei');
  session.deviceId = id;
  const keyword = fields[1] ?? '';
  if (keyword === 'OBD') {
    const obd = decodeObd(fields);
    if (!obd) return ignoredResult('OBD report whose date or fields do not match its layout', o('OBD', id, ack));
    return stateResult(obd.attributes, new Alarms(), { ...o('OBD', id, ack), deviceTime: obd.time });
  }
  if (keyword.startsWith('vr')) return ignoredResult('photo data: photo transfer not supported', o('vr', id, ack));
  if (alternative) {
    const report = decodeAlternative(fields);
    if (!report) return ignoredResult('alternative report whose fields do not match its layout', o('alt', id, ack));
    return positionsResult([positionOf(report.fix, report.attributes, new Alarms(), id)], o('alt', id, ack));
  }
  return decodeReport(id, fields, ack);
}

export const gps103Protocol: Protocol = {
  name: PROTOCOL,
  defaultPort: GPS103_PORT,
  transport: ['tcp'],
  splitFrames: splitGps103Frames,
  decode: decodeGps103,
};
