import { DecodeError, type DecodeResult } from '../protocol';
import { encodeGt06Packet } from './ack';
import { decodeAddressRequest, decodeAz735, decodeDashcamAlarm, decodeGpsLbs8, decodeIButton, decodeModular, decodeX1Gps } from './fixes';
import { parseGt06Envelope, type Gt06Envelope } from './frame';
import { decodeBms, decodeInfo, decodeObd, decodePeripheral, decodeSerial, decodeString, decodeStringInfo } from './info';
import { decodeLocationFamily, isLocationFamily } from './location';
import { decodeMultiCell, decodeWifi, MULTI_CELL_TYPES } from './lbs';
import { Alarms, Gt06Message, type Gt06Session } from './message';

/**
 * GT06 / Concox / Jimi message decoder: routes each message type to its layout. Message numbers
 * and layouts are facts from the Concox GT06, GT06N, JM-VL01/VL03 and GK310 protocol documents
 * and Traccar's Gt06ProtocolDecoder, which lists the variants seen in the field. The table in
 * services/ingest/README.md says what becomes of each type.
 *
 * 7979 ("extended") frames carry a two-byte length; besides their own types (0x21, 0x32, 0x33,
 * 0x38, 0x70, 0x8C, 0x94, 0x9B, 0xF2, ...) they may carry any location/status type, decoded as
 * in a 7878 frame and acknowledged in the 7979 form.
 */
export type { Gt06Session };

type Handler = (m: Gt06Message) => DecodeResult;

/** Types whose reply is not an acknowledgement (server commands echoed, media transfer). */
const REFUSED_BASIC: ReadonlyMap<number, { reason: string; ack: boolean }> = new Map([
  [0x14, { reason: 'satellite detail: layout not public', ack: true }],
  [0x35, { reason: 'X1 photo: photo transfer is not supported', ack: false }],
  [0x80, { reason: 'server command packet echoed by the device', ack: false }],
  [0x81, { reason: 'server command packet echoed by the device', ack: false }],
  [0x82, { reason: 'server command packet echoed by the device', ack: false }],
]);

const REFUSED_EXTENDED: ReadonlyMap<number, string> = new Map([
  [0x36, 'X1 photo data: photo transfer is not supported'],
  [0x41, 'multimedia (WD-209 photo): photo transfer is not supported'],
  [0x65, 'OBD fault codes (FM08ABC): layout not public'],
  [0x66, 'OBD PID list (FM08ABC): layout not public'],
]);

function decodeLogin(m: Gt06Message): DecodeResult {
  const { env, session } = m;
  if (env.body.length < 8) throw new DecodeError('truncated', 'gt06: login without IMEI');
  // IMEI is 8 bytes of BCD with a leading zero nibble.
  const imei = env.body.subarray(0, 8).toString('hex').slice(1);
  if (!/^\d{15}$/.test(imei)) throw new DecodeError('bad_imei', `gt06: login IMEI is not BCD digits (${imei})`);
  session.deviceId = imei;
  if (env.body.length >= 12) {
    // Extended login: type identifier (2) then time zone word: hours*100+minutes in the top
    // 12 bits, bit 3 set for west of UTC.
    const zone = env.body.readUInt16BE(10);
    const hundreds = zone >> 4;
    const minutes = Math.trunc(hundreds / 100) * 60 + (hundreds % 100);
    if (minutes <= 14 * 60) session.gt06TimezoneMinutes = (zone & 0x08) !== 0 ? -minutes : minutes;
  }
  return { kind: 'login', deviceId: imei, positions: [], ack: m.ack(false), crcValid: env.crcValid, type: m.label };
}

/** GK310 heartbeat: status byte, optional battery (0.01 V) and GSM signal. */
function decodeHeartbeat(m: Gt06Message): DecodeResult {
  const { r } = m;
  const info = r.u8();
  const attributes = { armed: (info & 0x01) !== 0, ignition: (info & 0x02) !== 0, charge: (info & 0x04) !== 0 } as Record<
    string,
    number | boolean
  >;
  if (r.remaining >= 2) attributes.battery = r.u16() / 100;
  if (r.remaining >= 1) attributes.rssi = r.u8();
  const result = m.state(attributes, new Alarms());
  result.kind = 'heartbeat';
  return result;
}

/** GK310 time request: answered with the server's UTC time (0x8A y m d h m s). */
function decodeTimeRequest(m: Gt06Message): DecodeResult {
  const now = (m.session.now ?? (() => new Date()))();
  const content = Buffer.from([
    now.getUTCFullYear() - 2000,
    now.getUTCMonth() + 1,
    now.getUTCDate(),
    now.getUTCHours(),
    now.getUTCMinutes(),
    now.getUTCSeconds(),
  ]);
  return { kind: 'heartbeat', positions: [], crcValid: m.env.crcValid, type: m.label, ack: encodeGt06Packet(false, 0x8a, 0, content) };
}

function basicHandler(m: Gt06Message): Handler | null {
  const { type, variant } = m;
  if (type === 0x01) return decodeLogin;
  if ((type === 0x17 && variant !== 'RFID') || type === 0x69 || type === 0xf3) return decodeWifi;
  if (type === 0x23) return decodeHeartbeat;
  if (type === 0x2a) return decodeAddressRequest;
  if (type === 0x8a) return decodeTimeRequest;
  if (type === 0x15) return decodeString;
  if (type === 0x21) return decodeStringInfo;
  if (type === 0x34 && variant !== 'SL4X') return decodeX1Gps;
  if (type === 0x40) return decodeBms;
  if (type === 0x61) return decodeIButton;
  if (type === 0x94) return decodeInfo;
  if (type === 0x95) return decodeDashcamAlarm;
  if (type === 0xa2 && variant === 'LW4G') return decodeLocationFamily;
  if (MULTI_CELL_TYPES.has(type)) return decodeMultiCell;
  if (isLocationFamily(m)) return decodeLocationFamily;
  return null;
}

function extendedHandler(m: Gt06Message): Handler | null {
  switch (m.type) {
    case 0x21:
      return decodeStringInfo;
    case 0x32:
    case 0x33:
      return decodeAz735;
    case 0x38:
      return decodeGpsLbs8;
    case 0x70:
      return decodeModular;
    case 0x8c:
      return decodeObd;
    case 0x94:
      return decodeInfo;
    case 0x9b:
      return decodeSerial;
    case 0xf2:
      return decodePeripheral;
    default:
      // Location and status types sent in the long form decode as in a 7878 frame.
      return m.type !== 0x01 && isLocationFamily(m) ? decodeLocationFamily : null;
  }
}

function decodeMessage(m: Gt06Message): DecodeResult {
  if (m.env.bare && m.type !== 0x17 && m.type !== 0x69) return m.ignored(`0x${m.type.toString(16)} without a length: not a known form`);
  const handler = m.env.extended ? extendedHandler(m) : basicHandler(m);
  if (handler) {
    const result = handler(m);
    if (m.type === 0x13 && result.kind === 'state') result.kind = 'heartbeat';
    return result;
  }
  if (m.env.extended) return m.ignored(REFUSED_EXTENDED.get(m.type) ?? 'extended message type not described publicly');
  const refused = REFUSED_BASIC.get(m.type);
  if (refused) return m.ignored(refused.reason, refused.ack ? m.ack() : null);
  // Unknown packets are acknowledged so the device moves on (as Traccar does).
  return m.ignored('message type not described publicly', m.ack());
}

/** Decodes one whole GT06 frame (as cut by splitGt06Frames). Throws only DecodeError. */
export function decodeGt06(frame: Buffer, session: Gt06Session): DecodeResult {
  const env: Gt06Envelope = parseGt06Envelope(frame);
  try {
    return decodeMessage(new Gt06Message(env, session));
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    const reason = err instanceof RangeError ? 'truncated' : 'malformed';
    throw new DecodeError(reason, `gt06: message 0x${env.type.toString(16)}: ${(err as Error).message}`);
  }
}
