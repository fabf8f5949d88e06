import { DecodeError, type DecodedPosition, type DecodeResult, type ProtocolSession } from '../protocol';
import { encodeGt06Ack } from './ack';
import { GT06_ALARM_BYTE } from './alarms';
import { readDateTime, readGpsBlock, readLbsBlock, readStatusBlock, readTerminalInfo, type CellTower, type GpsBlock } from './blocks';
import { parseGt06Envelope, type Gt06Envelope } from './frame';

/**
 * GT06 / Concox message decoder. Message numbers and layouts are facts from the Concox GT06
 * protocol document and Traccar's Gt06ProtocolDecoder (which lists the common variants).
 */
export const GT06_MSG = {
  login: 0x01,
  gps: 0x10,
  gpsLbs6: 0x11,
  gpsLbs1: 0x12,
  status: 0x13,
  string: 0x15,
  gpsLbsStatus1: 0x16,
  lbsStatus: 0x19,
  gpsPhone: 0x1a,
  stringInfo: 0x21,
  gpsLbs2: 0x22,
  heartbeat: 0x23,
  lbsMultiple3: 0x24,
  gpsLbsStatus2: 0x26,
  gpsLbsStatus3: 0x27,
  lbsMultiple1: 0x28,
  gpsLbs4: 0x2d,
  lbsMultiple2: 0x2e,
  gpsLbs3: 0x37,
  command0: 0x80,
  command1: 0x81,
  command2: 0x82,
  info: 0x94,
} as const;

const GPS_BLOCK_LENGTH = 18;
const STATUS_LONG_BODY = 16;
/** 0x19 packets of this size or more carry several cells (Traccar's SPACE10X variant); not decoded. */
const LBS_STATUS_MULTI_BODY = 18;
const GPS_TYPES = new Set<number>([0x10, 0x11, 0x12, 0x16, 0x1a, 0x22, 0x26, 0x27, 0x2d, 0x37]);
const LBS_AFTER_GPS = new Set<number>([0x11, 0x12, 0x16, 0x22, 0x26, 0x27, 0x2d, 0x37]);
const STATUS_TYPES = new Set<number>([0x16, 0x19, 0x26, 0x27]);
const ACC_BYTE_TYPES = new Set<number>([0x22, 0x2d, 0x37]);
const LBS_MULTIPLE_TYPES = new Set<number>([0x24, 0x28, 0x2e]);
const COMMAND_TYPES = new Set<number>([0x80, 0x81, 0x82]);

type Attributes = DecodedPosition['attributes'];

export interface Gt06Session extends ProtocolSession {
  /** Offset of the device clock from UTC in minutes, learned from an extended login. */
  gt06TimezoneMinutes?: number;
}

function timezoneOf(session: Gt06Session): number {
  return typeof session.gt06TimezoneMinutes === 'number' ? session.gt06TimezoneMinutes : 0;
}

/** Marks a result as an alarm: kind, events and the alarm attribute for position-less results. */
function withAlarm(result: DecodeResult, alarm: string | null): DecodeResult {
  if (!alarm) return result;
  result.kind = 'alarm';
  result.events = [{ alarm }];
  if (result.attributes) result.attributes.alarm = alarm;
  return result;
}

function ack(env: Gt06Envelope): Buffer {
  return encodeGt06Ack(env.extended, env.type, env.serial);
}

function cellAttributes(cell: CellTower | null): Attributes {
  return cell && (cell.mcc !== 0 || cell.cid !== 0) ? { mcc: cell.mcc, mnc: cell.mnc, lac: cell.lac, cid: cell.cid } : {};
}

function decodeLogin(env: Gt06Envelope, session: Gt06Session): DecodeResult {
  if (env.body.length < 8) throw new DecodeError('truncated', 'gt06: login without IMEI');
  // IMEI is 8 bytes of BCD with a leading zero nibble.
  const imei = env.body.subarray(0, 8).toString('hex').slice(1);
  if (!/^\d{15}$/.test(imei)) throw new DecodeError('bad_imei', `gt06: login IMEI is not BCD digits (${imei})`);
  session.deviceId = imei;
  if (env.body.length >= 12) {
    // Extended login: type identifier (2) then time zone word: BCD-ish hours*100+minutes in the
    // top 12 bits, bit 3 set for west of UTC.
    const zone = env.body.readUInt16BE(10);
    const hundreds = zone >> 4;
    const minutes = Math.trunc(hundreds / 100) * 60 + (hundreds % 100);
    if (minutes <= 14 * 60) session.gt06TimezoneMinutes = (zone & 0x08) !== 0 ? -minutes : minutes;
  }
  return { kind: 'login', deviceId: imei, positions: [], ack: ack(env), crcValid: env.crcValid };
}

/**
 * 0x13 with a 16-byte body (newer Concox firmware): information content(1) satellites(2) alarm(1)
 * language(1) battery level %(1) working mode(1) voltage(2) reserved(1) working times(2) working
 * time(2) temperature(2: 0.1 degree, bit 15 = positive).
 */
function decodeStatusLong(env: Gt06Envelope): DecodeResult {
  const { body } = env;
  const raw = body.readUInt16BE(14);
  const temperature = (raw & 0x7fff) / 10;
  const attributes: Attributes = { batteryLevel: body.readUInt8(5), temp1: (raw & 0x8000) !== 0 ? temperature : -temperature };
  return { kind: 'heartbeat', positions: [], attributes, ack: ack(env), crcValid: env.crcValid };
}

function decodeStatus(env: Gt06Envelope): DecodeResult {
  if (env.body.length === STATUS_LONG_BODY) return decodeStatusLong(env);
  const { status } = readStatusBlock(env.body, 0);
  const attributes: Attributes = { ...status.attributes, ignition: status.ignition };
  const alarmByte = env.body.length > 3 ? env.body.readUInt8(3) : 0;
  const alarm = GT06_ALARM_BYTE.get(alarmByte) ?? status.alarm;
  return withAlarm({ kind: 'heartbeat', positions: [], attributes, ack: ack(env), crcValid: env.crcValid }, alarm);
}

/** GK310 heartbeat: status byte, optional battery (0.01 V) and GSM signal. */
function decodeHeartbeat(env: Gt06Envelope): DecodeResult {
  const info = env.body.readUInt8(0);
  const attributes: Attributes = { armed: (info & 0x01) !== 0, ignition: (info & 0x02) !== 0, charge: (info & 0x04) !== 0 };
  if (env.body.length >= 3) attributes.battery = env.body.readUInt16BE(1) / 100;
  if (env.body.length >= 4) attributes.rssi = env.body.readUInt8(3);
  return { kind: 'heartbeat', positions: [], attributes, ack: ack(env), crcValid: env.crcValid };
}

function positionFrom(gps: GpsBlock, fixTime: Date, session: Gt06Session): DecodedPosition {
  // Plain literal with every key: conditional spreads are slow on this hot path.
  return {
    deviceId: session.deviceId,
    fixTime,
    valid: gps.valid,
    latitude: gps.latitude,
    longitude: gps.longitude,
    speed: gps.speed,
    course: gps.course,
    satellites: gps.satellites,
    ignition: gps.ignition,
    attributes: {},
  };
}

/** Location packets (0x10, 0x11, 0x12, 0x1A, 0x22, 0x2D, 0x37) and GPS alarm packets (0x16, 0x26, 0x27). */
function decodeLocation(env: Gt06Envelope, session: Gt06Session): DecodeResult {
  if (env.type === GT06_MSG.gps && env.body.length < GPS_BLOCK_LENGTH && env.payload.length === GPS_BLOCK_LENGTH) {
    // Some 0x10 senders put only the GPS block in the frame, without serial or CRC: nothing to
    // check (so crcValid stays true) and no serial to acknowledge.
    const result = decodeLocation({ ...env, body: env.payload, crcValid: true }, session);
    delete result.ack;
    return result;
  }
  const { body, type } = env;
  const { gps, next } = readGpsBlock(body, 0, timezoneOf(session));
  let at = next;
  const attributes: Attributes = {};
  let ignition = gps.ignition;
  let alarm: string | null = null;
  let power: number | null = null;
  let odometer: number | null = null;

  if (LBS_AFTER_GPS.has(type)) {
    const lbs = readLbsBlock(body, at, type === GT06_MSG.gpsLbs6, STATUS_TYPES.has(type));
    Object.assign(attributes, cellAttributes(lbs.cell));
    at = lbs.next;
  }
  if (STATUS_TYPES.has(type)) {
    const { status, next: afterStatus } = readStatusBlock(body, at);
    Object.assign(attributes, status.attributes);
    ignition = status.ignition;
    alarm = GT06_ALARM_BYTE.get(body.readUInt8(afterStatus)) ?? status.alarm;
    at = afterStatus + 1;
  }
  const remaining = body.length - at;
  if (type === GT06_MSG.gpsLbs1 && remaining === 12) {
    // S5 variant (length 0x2B): terminal info, power (0.01 V), GSM signal, alarm, oil, temperature
    // (sign bit 7), odometer (units of 10 m).
    const status = readTerminalInfo(body.readUInt8(at));
    Object.assign(attributes, status.attributes);
    ignition = status.ignition;
    power = body.readUInt16BE(at + 1) / 100;
    attributes.rssi = body.readUInt8(at + 3);
    alarm = GT06_ALARM_BYTE.get(body.readUInt8(at + 4)) ?? status.alarm;
    attributes.oil = body.readUInt16BE(at + 5);
    const temperature = body.readUInt8(at + 7);
    attributes.temp1 = (temperature & 0x80) !== 0 ? -(temperature & 0x7f) : temperature;
    odometer = body.readUInt32BE(at + 8) * 10;
  } else if (type === GT06_MSG.gpsLbs1 && remaining === 5) {
    // VXT01 variant (length 0x24): terminal info, external power (0.01 V), GSM signal, alarm extension.
    const status = readTerminalInfo(body.readUInt8(at));
    Object.assign(attributes, status.attributes);
    ignition = status.ignition;
    alarm = status.alarm === 'removing' ? 'overspeed' : status.alarm;
    power = body.readUInt16BE(at + 1) / 100;
    attributes.rssi = body.readUInt8(at + 3);
  } else if (ACC_BYTE_TYPES.has(type) && remaining >= 3) {
    ignition = body.readUInt8(at) > 0;
    attributes.event = body.readUInt8(at + 1); // upload reason
    attributes.archive = body.readUInt8(at + 2) > 0; // re-uploaded from memory
    if (remaining === 7) odometer = body.readUInt32BE(at + 3);
  } else if (remaining === 4) {
    odometer = body.readUInt32BE(at);
  }

  if (!gps.fixTime) return withAlarm({ kind: 'position', positions: [], attributes, ack: ack(env), crcValid: env.crcValid }, alarm);
  const position = positionFrom(gps, gps.fixTime, session);
  position.ignition = ignition;
  position.alarm = alarm;
  position.power = power;
  position.odometer = odometer;
  position.attributes = attributes;
  return withAlarm({ kind: 'position', positions: [position], ack: ack(env), crcValid: env.crcValid }, alarm);
}

/** LBS status (0x19): cell, terminal info and alarm without a GPS fix. */
function decodeLbsStatus(env: Gt06Envelope): DecodeResult {
  if (env.body.length >= LBS_STATUS_MULTI_BODY) return { kind: 'ignored', positions: [], crcValid: env.crcValid };
  const lbs = readLbsBlock(env.body, 0, false, true);
  const { status, next } = readStatusBlock(env.body, lbs.next);
  const alarm = GT06_ALARM_BYTE.get(env.body.readUInt8(next)) ?? status.alarm;
  const attributes: Attributes = { ...cellAttributes(lbs.cell), ...status.attributes, ignition: status.ignition };
  return withAlarm({ kind: 'heartbeat', positions: [], attributes, ack: ack(env), crcValid: env.crcValid }, alarm);
}

/** Multi-cell LBS packets (0x24, 0x28, 0x2E): time, MCC/MNC and the serving cell; no fix. */
function decodeLbsMultiple(env: Gt06Envelope, session: Gt06Session): DecodeResult {
  const time = readDateTime(env.body, 0, timezoneOf(session));
  const lbs = readLbsBlock(env.body, 6, false, false);
  const attributes: Attributes = { ...cellAttributes(lbs.cell), rssi: env.body.readUInt8(lbs.next) };
  if (time) attributes.lbsTime = time.toISOString();
  return { kind: 'heartbeat', positions: [], attributes, ack: ack(env), crcValid: env.crcValid };
}

/** 0x15 command response: length(1) server flag(4) ASCII text. */
function decodeString(env: Gt06Envelope): DecodeResult {
  const length = env.body.readUInt8(0);
  const attributes: Attributes = {};
  if (length >= 4) {
    if (1 + length > env.body.length) throw new DecodeError('truncated', 'gt06: command response longer than its frame');
    const text = env.body.subarray(5, 1 + length).toString('latin1');
    if (text.startsWith('<ICCID:')) attributes.iccid = text.slice(7, 27);
    else attributes.result = text;
  }
  return { kind: 'ignored', positions: [], attributes, ack: ack(env), crcValid: env.crcValid };
}

/** 0x21 (extended) command response: server flag(4) encoding(1: 1 ASCII, else UTF-16BE) text. */
function decodeStringInfo(env: Gt06Envelope): DecodeResult {
  const encoding = env.body.readUInt8(4);
  const raw = env.body.subarray(5);
  const text = encoding === 1 ? raw.toString('latin1') : raw.subarray(0, raw.length & ~1).swap16().toString('utf16le');
  return { kind: 'ignored', positions: [], attributes: { result: text }, crcValid: env.crcValid };
}

/** 0x94 information transmission (extended): 0x00 external voltage, 0x0A ICCID. */
function decodeInfo(env: Gt06Envelope): DecodeResult {
  const subType = env.body.readUInt8(0);
  const attributes: Attributes = {};
  if (subType === 0x00) attributes.adc1 = env.body.readUInt16BE(1) / 100;
  else if (subType === 0x0a) attributes.iccid = env.body.subarray(17, 27).toString('hex').replace(/f/g, '');
  else attributes.infoType = subType;
  return { kind: 'heartbeat', positions: [], attributes, crcValid: env.crcValid };
}

function decodeEnvelope(env: Gt06Envelope, session: Gt06Session): DecodeResult {
  const { type } = env;
  if (env.bare) return { kind: 'ignored', positions: [], crcValid: false };
  if (type === GT06_MSG.login) return decodeLogin(env, session);
  if (type === GT06_MSG.status) return decodeStatus(env);
  if (type === GT06_MSG.heartbeat) return decodeHeartbeat(env);
  if (GPS_TYPES.has(type)) return decodeLocation(env, session);
  if (type === GT06_MSG.lbsStatus) return decodeLbsStatus(env);
  if (LBS_MULTIPLE_TYPES.has(type)) return decodeLbsMultiple(env, session);
  if (type === GT06_MSG.string) return decodeString(env);
  if (type === GT06_MSG.stringInfo && env.extended) return decodeStringInfo(env);
  if (type === GT06_MSG.info && env.extended) return decodeInfo(env);
  // Unknown packets are acknowledged so the device moves on (as Traccar does), except command
  // echoes and extended packets, which expect no reply.
  const replies = !env.extended && !COMMAND_TYPES.has(type);
  const result: DecodeResult = { kind: 'ignored', positions: [], crcValid: env.crcValid };
  if (replies) result.ack = ack(env);
  return result;
}

/** Decodes one whole GT06 frame (as cut by splitGt06Frames). Throws only DecodeError. */
export function decodeGt06(frame: Buffer, session: Gt06Session): DecodeResult {
  const env = parseGt06Envelope(frame);
  try {
    return decodeEnvelope(env, session);
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    const reason = err instanceof RangeError ? 'truncated' : 'malformed';
    throw new DecodeError(reason, `gt06: message 0x${env.type.toString(16)}: ${(err as Error).message}`);
  }
}
