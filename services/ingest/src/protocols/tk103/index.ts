import { DecodeError, type DecodeResult, type Protocol, type ProtocolSession } from '../protocol';
import { Alarms, commandResult, ignoredResult, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import { alarmOf, ignitionOf } from './alarms';
import { decodeBs50, decodeBs51 } from './bms';
import { splitTk103Frames } from './frame';
import { decodeClassic, decodeComma, type Tk103Report } from './position';
import { decodeBattery, decodeCellList, decodeLbsWifi, decodeNetwork, decodeReply, decodeVin, type Tk103State } from './reports';

/**
 * TK103 (Traccar default port 5002, TCP). Facts from the public "GPS Tracker TK103 Protocol"
 * document and Traccar's Tk103ProtocolDecoder. Frames are `(` ... `)`, in two layouts:
 * classic `(<id, usually 12 chars><command: 2 letters + 2 digits><body>)` and comma
 * `(<id>,<command>,<fields>)`.
 *
 * - position reports (BR00-BR02, BP05 login, BO01 alarm, BQ81 alarm, BP02, ZCxx/DW3x): a position,
 *   or a state record with the device time and io when the report has no usable fix (bad date,
 *   0/0 coordinates); alarms and ignition by command (ZC11/DW31 movement, ZC25 sos, ZC15 ignition
 *   on, ...), BO01 by its digit, BQ81 by its code;
 * - ZC20 battery, BZ00 serving cell, `{mcc,mnc,lac,cid}` cell lists, DW5x cells + Wi-Fi, BV00
 *   VIN, BS50/BS51 battery management: state records;
 * - ZC03 `$text$`: a command result;
 * - acks: BP05 login → `(<id>AP05)`, BP00 handshake → `(<id>AP01HSO)`, BO01 alarm →
 *   `(<id>AS01<digit>)` (AS01 "alarm confirmation" per the TK103 document; Traccar sends none);
 * - BQ86 (hex payload without a public layout) and unknown commands are refused with the reason.
 */
export const PROTOCOL = 'tk103';
export const TK103_PORT = 5002;

const KNOWN = new Set(['BP00', 'BP02', 'BP05', 'BO01', 'BQ81', 'BQ86', 'BR00', 'BR01', 'BR02', 'BV00', 'BZ00', 'BS50', 'BS51']);

/** The message type label: the command when it is a known one or a ZC/DW report type, else `other`. */
function typeOf(command: string): string {
  return KNOWN.has(command) || /^(?:ZC\d\d|DW[0-9A-F]{2})$/.test(command) ? command : 'other';
}

interface Context {
  id: string;
  command: string;
  type: string;
  ack?: Buffer | undefined;
  login: boolean;
}

function ack(id: string, reply: string): Buffer {
  return Buffer.from(`(${id}${reply})`, 'latin1');
}

function asLogin(result: DecodeResult, c: Context): DecodeResult {
  if (c.login) result.kind = 'login';
  return result;
}

function options(c: Context) {
  return { type: c.type, crcValid: true, deviceId: c.id, ack: c.ack };
}

/** A report: a position when it has a fix, else a state record with its attributes, device time and alarm. */
function reportResult(report: Tk103Report, c: Context): DecodeResult {
  const alarms = new Alarms();
  alarms.add(alarmOf(c.command, report.data));
  const attributes: Attributes = { ...report.attributes };
  const ignition = ignitionOf(c.command);
  if (ignition !== null) attributes.ignition = ignition;
  if (report.fix) return asLogin(positionsResult([positionOf(report.fix, attributes, alarms, c.id)], options(c)), c);
  return asLogin(stateResult(attributes, alarms, { ...options(c), deviceTime: report.time }), c);
}

function stateOf(state: Tk103State | null, c: Context, alarm: string | null = null): DecodeResult {
  if (!state) return ignoredResult(`${c.command} report whose fields do not match its layout`, options(c));
  const alarms = new Alarms();
  alarms.add(alarm);
  return asLogin(stateResult(state.attributes, alarms, { ...options(c), deviceTime: state.time }), c);
}

function decodeCommaLayout(c: Context, rest: string): DecodeResult {
  const fields = rest.split(',');
  if (c.command === 'ZC20') return stateOf(decodeBattery(fields), c);
  if (c.command === 'ZC03') {
    const reply = decodeReply(rest);
    if (!reply) return ignoredResult('ZC03 reply without its $text$', options(c));
    const result = commandResult(reply.text, options(c));
    if (reply.time) result.deviceTime = reply.time;
    return result;
  }
  if (c.command.startsWith('DW5')) return stateOf(decodeLbsWifi(fields), c, alarmOf(c.command, ''));
  const report = decodeComma(fields);
  if (!report) return ignoredResult(`${c.command} report: layout not public`, options(c));
  return reportResult(report, c);
}

function decodeClassicLayout(c: Context, body: string): DecodeResult {
  if (body.includes('{') && body.includes('}')) return stateOf(decodeCellList(body), c);
  switch (c.command) {
    case 'BZ00':
      return stateOf(decodeNetwork(body.replace(/^,/, '').split(',')), c);
    case 'BV00':
      return stateOf(decodeVin(body), c);
    case 'BS50':
      return stateOf(bmsState(decodeBs50(body)), c);
    case 'BS51':
      return stateOf(bmsState(decodeBs51(body)), c);
    case 'BQ86':
      return ignoredResult('BQ86 report: layout not public', options(c));
    default:
  }
  const report = decodeClassic(body);
  if (!report) return ignoredResult(`${c.command} report: layout not public`, options(c));
  return reportResult(report, c);
}

function bmsState(attributes: Attributes | null): Tk103State | null {
  return attributes ? { attributes, time: null } : null;
}

export function decodeTk103(frame: Buffer, session: ProtocolSession): DecodeResult {
  const text = frame.toString('latin1').trim().replace(/^\(/, '').replace(/\)$/, '');
  const comma = /^(\d{1,20}),([A-Z0-9]{4}),(.*)$/s.exec(text);
  const classic = comma ? null : /^(.{10,15}?)([A-Z]{2}\d\d)(.*)$/s.exec(text);
  const parts = comma ?? classic;
  if (!parts) throw new DecodeError('malformed', 'tk103: no device id and command');
  const [, id, command, body] = parts as unknown as [string, string, string, string];
  session.deviceId = id;
  const c: Context = { id, command, type: typeOf(command), login: command === 'BP05' };
  if (command === 'BP00') return stateResult({}, new Alarms(), { ...options(c), ack: ack(id, 'AP01HSO'), kind: 'heartbeat' });
  if (command === 'BP05') c.ack = ack(id, 'AP05');
  if (command === 'BO01') c.ack = ack(id, `AS01${body.charAt(0)}`);
  return comma ? decodeCommaLayout(c, body) : decodeClassicLayout(c, body);
}

export const tk103Protocol: Protocol = {
  name: PROTOCOL,
  defaultPort: TK103_PORT,
  transport: ['tcp'],
  splitFrames: splitTk103Frames,
  decode: decodeTk103,
};
