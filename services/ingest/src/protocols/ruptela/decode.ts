import { DecodeError, type DecodedPosition, type DecodeResult, type ProtocolSession } from '../protocol';
import { encodeRuptela, ruptelaPayload } from './frame';
import { decodeRuptelaRecords } from './records';

/**
 * Ruptela FM-series messages (command numbers from Ruptela's protocol document, as Traccar's
 * RuptelaProtocolDecoder lists them). Every device payload starts with the IMEI (8 bytes) and the
 * command:
 * - 1 records, 68 extended records → positions (a record without a fix: state record), ack `100, 01`
 *   (sent whatever the records held: the device drops them from its memory once acknowledged);
 * - 15 identification → login, ack `115, 01`; 16 heartbeat → ack `116, 01`;
 * - 9 diagnostic trouble codes → positions carrying `dtcs` (`archive` when stored), ack `109, 01`;
 * - 2 configuration, 3 version, 4 firmware, 7 SMS-via-GPRS replies → command result (the text);
 *   5 set-connection, 6 set-odometer and 17 set-IO replies → command result (the status byte);
 * - 37 files (photo transfer) → refused: file transfer not supported (not acknowledged, as the
 *   other protocols' photo transfers);
 * - anything else → refused: message type not supported.
 */
export const RUPTELA_MSG = {
  records: 1,
  configuration: 2,
  version: 3,
  firmware: 4,
  setConnection: 5,
  setOdometer: 6,
  smsResponse: 7,
  smsViaGprs: 8,
  dtcs: 9,
  identification: 15,
  heartbeat: 16,
  setIo: 17,
  files: 37,
  extendedRecords: 68,
} as const;
const TEXT_REPLIES = new Set<number>([RUPTELA_MSG.configuration, RUPTELA_MSG.version, RUPTELA_MSG.firmware, RUPTELA_MSG.smsResponse]);
const POSITIVE = Buffer.from([1]);

/** The server's positive answer: command 100 for records (1 and 68), else 100 + the device command; data 01. */
export function encodeRuptelaAck(command: number): Buffer {
  const records = command === RUPTELA_MSG.records || command === RUPTELA_MSG.extendedRecords;
  return encodeRuptela(records ? 100 : 100 + command, POSITIVE);
}

type Base = Pick<DecodeResult, 'crcValid' | 'deviceId' | 'type'>;

function records(base: Base, data: Buffer, extended: boolean, imei: string): DecodeResult {
  const r = decodeRuptelaRecords(data, extended, imei);
  const events = r.alarms.map((alarm) => ({ alarm }));
  const result: DecodeResult = {
    ...base,
    kind: events.length ? 'alarm' : r.positions.length ? 'position' : 'state',
    positions: r.positions,
    ack: encodeRuptelaAck(RUPTELA_MSG.records),
  };
  if (events.length) result.events = events;
  if (!r.positions.length) result.attributes = { ...(r.state ?? {}), ...(r.alarms.length ? { alarm: r.alarms.join(',') } : {}) };
  if (!r.positions.length && r.stateTime) result.deviceTime = r.stateTime;
  return result;
}

/** Command 9: count, then `reserved BYTE, time DWORD, longitude INT32, latitude INT32, archive BYTE (2 = stored), code ASCII[5]`. */
function dtcs(base: Base, data: Buffer, imei: string): DecodeResult {
  const count = data.readUInt8(0);
  const positions: DecodedPosition[] = [];
  for (let i = 0, at = 1; i < count; i++, at += 19) {
    if (at + 19 > data.length) throw new DecodeError('truncated', `ruptela: DTC ${i} past the end`);
    const attributes: DecodedPosition['attributes'] = { dtcs: data.subarray(at + 14, at + 19).toString('latin1') };
    if (data.readUInt8(at + 13) === 2) attributes.archive = true;
    positions.push({
      deviceId: imei,
      fixTime: new Date(data.readUInt32BE(at + 1) * 1000),
      valid: true,
      longitude: data.readInt32BE(at + 5) / 1e7,
      latitude: data.readInt32BE(at + 9) / 1e7,
      speed: 0,
      course: 0,
      attributes,
    });
  }
  return { ...base, kind: 'position', positions, ack: encodeRuptelaAck(RUPTELA_MSG.dtcs) };
}

export function decodeRuptela(frame: Buffer, session: ProtocolSession): DecodeResult {
  const { payload, crcValid } = ruptelaPayload(frame);
  if (payload.length < 9) throw new DecodeError('truncated', 'ruptela: payload without IMEI and command');
  const imei = payload.readBigUInt64BE(0).toString().padStart(15, '0');
  const command = payload.readUInt8(8);
  const data = payload.subarray(9);
  session.deviceId = imei;
  const base: Base = { crcValid, deviceId: imei, type: String(command) };
  try {
    switch (command) {
      case RUPTELA_MSG.records:
      case RUPTELA_MSG.extendedRecords:
        return records(base, data, command === RUPTELA_MSG.extendedRecords, imei);
      case RUPTELA_MSG.identification:
        return { ...base, kind: 'login', positions: [], ack: encodeRuptelaAck(command) };
      case RUPTELA_MSG.heartbeat:
        return { ...base, kind: 'heartbeat', positions: [], ack: encodeRuptelaAck(command) };
      case RUPTELA_MSG.dtcs:
        return dtcs(base, data, imei);
      case RUPTELA_MSG.setIo:
      case RUPTELA_MSG.setConnection:
      case RUPTELA_MSG.setOdometer:
        return { ...base, kind: 'result', positions: [], attributes: { result: String(data.readUInt8(0)) } };
      case RUPTELA_MSG.files:
        return { ...base, kind: 'ignored', positions: [], ignoredReason: 'file (photo) transfer not supported' };
      default:
        if (TEXT_REPLIES.has(command))
          return { ...base, kind: 'result', positions: [], attributes: { result: data.toString('latin1').trim() } };
        return { ...base, kind: 'ignored', positions: [], ignoredReason: 'message type not supported' };
    }
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    const reason = err instanceof RangeError ? 'truncated' : 'malformed';
    throw new DecodeError(reason, `ruptela: command ${command}: ${(err as Error).message}`);
  }
}
