import { crc16Arc } from '../crc16';
import { DecodeError, type DecodedPosition, type DecodeResult, type ProtocolSession } from '../protocol';
import { Alarms, commandResult, ignoredResult, positionOf, positionsResult, stateResult, type Attributes } from '../result';
import { DataError, EXTENDED_FIELDS, readData, SHORT_FIELDS, type WialonData } from './data';

/**
 * Wialon IPS packets (Gurtam's "Wialon IPS" communication protocol, versions 1.1 and 2.0; the
 * answers are the document's):
 * - `#L#` login (1.1 `imei;password`, 2.0 `2.0;imei;password;crc16`) → login, `#AL#1`;
 * - `#P#` ping → heartbeat, `#AP#`;
 * - `#SD#` short and `#D#` extended data → a position, or a state record when the packet has no
 *   coordinates, `#ASD#1` / `#AD#1`; a field that does not parse is answered with its error code
 *   (data.ts) and nothing is stored;
 * - `#B#` black box: several SD or D packets separated by `|` (2.0: a last `|crc16`) → positions
 *   marked `archive`, `#AB#<packets registered>`;
 * - `#M#` message from the driver → the text as a command result, `#AM#1`;
 * - `#I#` photo → refused (photo transfer not supported), other types refused as not supported.
 * Version 2.0 ends L, SD, D and M packets with a CRC-16 (CRC-16/ARC: reflected 0x8005, init 0) of
 * the message up to and including the last `;` (the `|` for B); a packet whose checksum does not
 * match is decoded with `crcValid=false` (ingest's CRC policy decides). The version is learned from
 * the login, else told by the number of fields.
 */

export interface WialonSession extends ProtocolSession {
  /** `2.0` when the login said so. */
  wialonVersion?: string;
  /** Arrival time of packets without a date (tests pin it). */
  now?: () => Date;
}

const PACKET = /^(?:(\d\.\d);)?([^#;]*)#([A-Z]{1,3})#(.*)$/s;
const CRC = /^(?:0x)?([0-9A-Fa-f]{1,4})$/;

interface Packet {
  type: string;
  message: string;
  session: WialonSession;
}

function answer(text: string): Buffer {
  return Buffer.from(`${text}\r\n`, 'latin1');
}

/** Splits `message` into its fields and the 2.0 checksum when `hasCrc`; crcValid compares it. */
function withCrc(message: string, separator: string, hasCrc: boolean): { body: string; crcValid: boolean } {
  if (!hasCrc) return { body: message, crcValid: true };
  const cut = message.lastIndexOf(separator);
  const crc = CRC.exec(message.slice(cut + 1));
  if (cut < 0 || !crc) return { body: message, crcValid: false };
  return { body: message.slice(0, cut), crcValid: crc16Arc(Buffer.from(message.slice(0, cut + 1), 'utf8')) === parseInt(crc[1]!, 16) };
}

function login(p: Packet): DecodeResult {
  const fields = p.message.split(';');
  const v20 = fields[0]?.includes('.') ?? false;
  const imei = (v20 ? fields[1] : fields[0])?.trim() ?? '';
  if (!/^[\x21-\x7e]{1,40}$/.test(imei)) throw new DecodeError('bad_id', `wialon: login without a device id (${p.message.slice(0, 40)})`);
  if (v20) p.session.wialonVersion = fields[0];
  else delete p.session.wialonVersion;
  p.session.deviceId = imei;
  const { crcValid } = withCrc(p.message, ';', v20 && fields.length >= 4);
  return { kind: 'login', positions: [], type: 'L', crcValid, deviceId: imei, ack: answer('#AL#1') };
}

/** Whether an SD/D packet of `count` fields ends with the 2.0 checksum. */
function dataHasCrc(type: string, count: number, session: WialonSession): boolean {
  const plain = type === 'SD' ? SHORT_FIELDS : EXTENDED_FIELDS;
  if (count === plain + 1) return true;
  if (count === plain) return false;
  return session.wialonVersion === '2.0';
}

function now(session: WialonSession): Date {
  return (session.now ?? (() => new Date()))();
}

function positionOfData(d: WialonData, deviceId: string | undefined, extra: Attributes = {}): DecodedPosition | null {
  return d.fix ? positionOf(d.fix, { ...d.attributes, ...extra }, new Alarms(), deviceId) : null;
}

function data(p: Packet, deviceId: string | undefined): DecodeResult {
  const ackType = p.type === 'SD' ? 'ASD' : 'AD';
  const count = p.message.split(';').length;
  const { body, crcValid } = withCrc(p.message, ';', dataHasCrc(p.type, count, p.session));
  const o = { type: p.type, crcValid, deviceId, ack: answer(`#${ackType}#1`) };
  let d: WialonData;
  try {
    const fields = body.split(';');
    if ((p.type === 'SD') !== (fields.length === SHORT_FIELDS)) throw new DataError(-1, `${p.type} packet of ${fields.length} fields`);
    d = readData(fields, now(p.session));
  } catch (err) {
    if (!(err instanceof DataError)) throw err;
    return ignoredResult(`data refused (${err.message})`, { ...o, ack: answer(`#${ackType}#${err.code}`) });
  }
  const position = positionOfData(d, deviceId);
  if (position) return positionsResult([position], o);
  return stateResult(d.attributes, new Alarms(), { ...o, deviceTime: d.time });
}

/** `#B#`: packets separated by `|`, in 2.0 a last `|crc16`; each registered packet counts in `#AB#`. */
function blackBox(p: Packet, deviceId: string | undefined): DecodeResult {
  const parts = p.message.split('|');
  const last = parts[parts.length - 1] ?? '';
  const hasCrc = parts.length > 1 && !last.includes(';') && (CRC.test(last) || p.session.wialonVersion === '2.0');
  const { body, crcValid } = withCrc(p.message, '|', hasCrc);
  const packets = body.split('|').filter((x) => x.length);
  const positions: DecodedPosition[] = [];
  let registered = 0;
  let state: WialonData | undefined;
  for (const packet of packets) {
    let d: WialonData;
    try {
      d = readData(packet.split(';'), now(p.session));
    } catch (err) {
      if (err instanceof DataError) continue;
      throw err;
    }
    registered++;
    const position = positionOfData(d, deviceId, { archive: true });
    if (position) positions.push(position);
    else state = d;
  }
  const o = { type: 'B', crcValid, deviceId, ack: answer(`#AB#${registered}`) };
  if (positions.length) return positionsResult(positions, o);
  if (state) return stateResult({ ...state.attributes, archive: true }, new Alarms(), { ...o, deviceTime: state.time });
  return ignoredResult('black box without a packet that parses', o);
}

/** `#M#`: a message from the driver (2.0: `text;crc16`). */
function driverMessage(p: Packet, deviceId: string | undefined): DecodeResult {
  // the text may hold ';' itself: without a 2.0 login, a last field is the checksum only when it matches
  const cut = p.message.lastIndexOf(';');
  const tail = cut >= 0 ? CRC.exec(p.message.slice(cut + 1)) : null;
  const matches = tail !== null && crc16Arc(Buffer.from(p.message.slice(0, cut + 1), 'utf8')) === parseInt(tail[1]!, 16);
  const { body, crcValid } = withCrc(p.message, ';', p.session.wialonVersion === '2.0' || matches);
  return commandResult(body, { type: 'M', crcValid, deviceId, ack: answer('#AM#1') });
}

export function decodeWialon(frame: Buffer, session: WialonSession): DecodeResult {
  const text = frame
    .toString('utf8')
    .replace(/\r?\n[\s\S]*$/, '')
    .replace(/\r$/, '');
  const m = PACKET.exec(text);
  if (!m) throw new DecodeError('malformed', `wialon: not a #type#message packet (${text.slice(0, 24)})`);
  const [, prefixVersion, prefixId = '', type = '', message = ''] = m;
  if (prefixVersion) session.wialonVersion = prefixVersion;
  const p: Packet = { type, message, session };
  if (prefixId) session.deviceId = prefixId;
  const deviceId = prefixId || session.deviceId;
  switch (type) {
    case 'L':
      return login(p);
    case 'P':
      return { kind: 'heartbeat', positions: [], type: 'P', crcValid: true, ...(deviceId ? { deviceId } : {}), ack: answer('#AP#') };
    case 'SD':
    case 'D':
      return data(p, deviceId);
    case 'B':
      return blackBox(p, deviceId);
    case 'M':
      return driverMessage(p, deviceId);
    case 'I':
      return ignoredResult('photo: photo transfer not supported', { type: 'I', crcValid: true, deviceId });
    default:
      return ignoredResult('packet type not supported', { type: 'other', crcValid: true, deviceId });
  }
}
