import { DecodeError, type DecodedPosition, type DecodeResult, type ProtocolSession } from '../protocol';
import { Alarms, commandResult, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import { findBlocks, findCell, type Block } from './blocks';
import { readCan } from './can';
import { time } from './fields';
import { modelOf, type Model } from './models';
import { readObd } from './obd';
import { alarmOf, readHead, reportOf } from './reports';
import { readGsm, readGt300Info, readInfo, readLbs, readTransparent, readVersion, readWifiReport } from './status';
import { readTail } from './tail';

/**
 * Queclink @Track text messages of every model (Queclink's @Track air interface protocols for the
 * GV, GL, GMT, GB, CV and GT series; Traccar's Gl200TextProtocolDecoder and its public test messages
 * for the layouts). One reading for all models: a report's locations are found by their shape
 * (blocks.ts), the fields before them by the report type (reports.ts), those after them by their
 * shape and, where the shape leaves it open, the model (tail.ts, models.ts); no model is refused.
 * - `+RESP`/`+BUFF` reports with locations → positions (`+BUFF`: stored while offline → `archive`),
 *   alarms by report type; a report whose locations hold no fix → a state record with the cell;
 * - `GTINF`, `GTVER`, `GTGSM`, `GTWIF`, `GTLBS`, `GTDTT`, `GTPNA`/`GTPFA`, a `GTCAN` without a
 *   location → state records;
 * - every report is answered `+SACK:<count>$` (devices with SACK enabled resend what was not);
 * - `+ACK:GTHBD` heartbeat → answered `+SACK:GTHBD,<version>,<count>$`; other `+ACK` → command result.
 */
const HEADER = /^\+(RESP|BUFF|ACK):GT([A-Z0-9]{3})$/;
const IMEI = /^(\d{15}|[0-9A-Fa-f]{14})$/;
const VIN = /^(?=.*\d)(?=.*[A-HJ-NPR-Z])[A-HJ-NPR-Z0-9]{17}$/;
const COUNT = /^[0-9A-Fa-f]{4}$/;

interface Message {
  v: string[];
  kind: 'RESP' | 'BUFF' | 'ACK';
  type: string;
  version: string;
  model: Model;
  imei: string;
  text: string;
  /** Index of the device name (after the IMEI, or after a VIN that follows it). */
  nameAt: number;
  vin: string | null;
  /** Index of the send time: the fields of the report end before it. */
  end: number;
  count: string;
}

function parseQueclink(frame: Buffer): Message {
  const text = frame.toString('latin1').replace(/\$$/, '');
  const v = text.split(',');
  const m = HEADER.exec(v[0] ?? '');
  if (!m || v.length < 3) throw new DecodeError('malformed', `queclink: not an @Track message (${text.slice(0, 24)})`);
  let version = v[1] ?? '';
  let imeiAt = 2;
  if (!IMEI.test(v[2] ?? '') && IMEI.test(version)) {
    // the GT300 series sends no protocol version after the header (it closes the message instead)
    imeiAt = 1;
    version = '';
  }
  const imei = v[imeiAt] ?? '';
  if (!IMEI.test(imei)) throw new DecodeError('bad_id', `queclink: no IMEI in ${text.slice(0, 40)}`);
  let end = v.length - 2;
  let count = v[v.length - 1] ?? '';
  if (!COUNT.test(count) && /^[0-9A-Fa-f]{10}$/.test(count) && COUNT.test(v[v.length - 2] ?? '')) {
    count = v[v.length - 2]!;
    end = v.length - 3;
  }
  const vinCandidate = v[imeiAt + 1] ?? '';
  const vin = m[2] !== 'OBD' && VIN.test(vinCandidate) ? vinCandidate : null;
  return {
    v,
    kind: m[1] as Message['kind'],
    type: m[2]!,
    version,
    model: modelOf(version),
    imei,
    text,
    nameAt: imeiAt + (vin ? 2 : 1),
    vin,
    end: Math.max(end, imeiAt + 1),
    count,
  };
}

type Options = { type: string; crcValid: boolean; deviceId: string; ack?: Buffer };

function deviceTime(msg: Message): Date | null {
  return time(msg.v[msg.end]);
}

/** Positions of the located blocks (head and tail values and the alarm on the last), or the state record. */
function located(msg: Message, blocks: Block[], extra: Attributes, alarm: string | null, o: Options): DecodeResult {
  const alarms = new Alarms();
  alarms.add(alarm);
  const archive: Attributes = msg.kind === 'BUFF' ? { archive: true } : {};
  const fixes = blocks.filter((b) => b.fix);
  if (!fixes.length) {
    const state: Attributes = {
      ...(blocks.length ? blocks[blocks.length - 1]!.attributes : findCell(msg.v, msg.nameAt + 1, msg.end)),
      ...extra,
      ...archive,
    };
    delete state.hdop;
    return stateResult(state, alarms, { ...o, deviceTime: deviceTime(msg) });
  }
  const positions: DecodedPosition[] = fixes.map((b, i) => {
    const last = i === fixes.length - 1;
    const attributes = last ? { ...b.attributes, ...extra, ...archive } : { ...b.attributes, ...archive };
    return positionOf(b.fix!, attributes, last ? alarms : new Alarms(), msg.imei);
  });
  return positionsResult(positions, o);
}

/** A report with locations: head by report type, locations by shape, tail by shape and model. */
function report(msg: Message, o: Options): DecodeResult {
  const { v, model } = msg;
  const from = msg.nameAt + 1;
  const blocks = findBlocks(v, from, msg.end, model);
  const type = reportOf(msg.type);
  const attributes: Attributes = msg.vin ? { vin: msg.vin } : {};
  const head = v.slice(from, blocks.length ? blocks[0]!.start : msg.end);
  readHead(type, head, attributes);
  if (blocks.length) {
    const tail = v.slice(blocks[blocks.length - 1]!.end, msg.end);
    readTail(tail, model, attributes, { extras: type.engine === true && /^GV500/.test(model.name) });
  }
  return located(msg, blocks, attributes, alarmOf(type, head), o);
}

function state(msg: Message, attributes: Attributes, o: Options, alarm: string | null = null): DecodeResult {
  const alarms = new Alarms();
  alarms.add(alarm);
  return stateResult({ ...attributes, ...(msg.kind === 'BUFF' ? { archive: true } : {}) }, alarms, { ...o, deviceTime: deviceTime(msg) });
}

function decodeMessage(msg: Message, o: Options): DecodeResult {
  const { v, end } = msg;
  const at = msg.nameAt + 1;
  switch (msg.type) {
    case 'INF':
      return state(msg, msg.version ? readInfo(v, at, msg.model) : readGt300Info(v, msg.nameAt), o);
    case 'VER':
      return state(msg, readVersion(v, at), o);
    case 'GSM':
      return state(msg, readGsm(v, end), o);
    case 'WIF':
      return state(msg, readWifiReport(v, at, end), o);
    case 'LBS':
      return state(msg, readLbs(v, at, end), o);
    case 'DTT':
      return state(msg, readTransparent(v, end), o);
    case 'PNA':
    case 'PFA':
      return state(msg, {}, o, msg.type === 'PNA' ? 'powerOn' : 'powerOff');
    case 'CAN': {
      const blocks = findBlocks(v, msg.nameAt + 4, end, msg.model);
      return located(msg, blocks, readCan(v, msg.nameAt + 3, msg.model), null, o);
    }
    case 'OBD': {
      const blocks = findBlocks(v, 7, end, msg.model);
      const attributes = readObd(v, blocks[0]?.start ?? end);
      if (blocks.length) readTail(v.slice(blocks[blocks.length - 1]!.end, end), msg.model, attributes, { extras: false });
      return located(msg, blocks, attributes, null, o);
    }
    default:
      return report(msg, o);
  }
}

export function decodeQueclink(frame: Buffer, session: ProtocolSession): DecodeResult {
  const msg = parseQueclink(frame);
  session.deviceId = msg.imei;
  const o: Options = { type: `GT${msg.type}`, crcValid: true, deviceId: msg.imei };
  if (msg.kind === 'ACK') {
    if (msg.type === 'HBD') return { kind: 'heartbeat', positions: [], ...o, ack: Buffer.from(`+SACK:GTHBD,${msg.version},${msg.count}$`) };
    return commandResult(msg.text, o);
  }
  if (COUNT.test(msg.count)) o.ack = Buffer.from(`+SACK:${msg.count}$`);
  try {
    return decodeMessage(msg, o);
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    throw new DecodeError(err instanceof RangeError ? 'truncated' : 'malformed', `queclink: GT${msg.type}: ${(err as Error).message}`);
  }
}
