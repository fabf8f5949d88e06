import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocol';
import { Alarms, commandResult, ignoredResult, positionsResult, stateResult, type Attributes } from '../result';
import { encodeImeiAck, encodeTcpAck, encodeUdpAck } from './ack';
import { parseAvlData, type AvlData } from './avl';
import { codecLabel, COMMAND_CODECS } from './codecs';
import { crc16Arc } from '../crc16';
import { KEEPALIVE_BYTE, MAX_IMEI_LENGTH } from './frame';

/**
 * Teltonika decoders for TCP frames (as cut by splitTeltonikaFrames) and UDP datagrams:
 * - codec 8, 8E, 16 and 7 (GH3000) records → positions (codec 7 records without a location → a
 *   state record), acknowledged with the record count;
 * - codec 12/13/14 messages → the reply text as a command result (axle loads and driver-card
 *   lines as device state; camera transfers refused), never acknowledged.
 */
const IMEI_PATTERN = /^[0-9]{1,32}$/;

export interface TeltonikaSession extends ProtocolSession {
  /** The connection's packets carry the 16-byte IO group (learned from the first that parsed so). */
  teltonikaGroup16?: boolean;
}

function readImei(buf: Buffer, at: number, length: number): string {
  if (length === 0 || length > MAX_IMEI_LENGTH || at + length > buf.length) {
    throw new DecodeError('bad_imei', `teltonika: IMEI length ${length} does not fit`);
  }
  const imei = buf.toString('latin1', at, at + length);
  if (!IMEI_PATTERN.test(imei)) throw new DecodeError('bad_imei', 'teltonika: IMEI is not decimal digits');
  return imei;
}

function repliesResult(avl: AvlData, o: { type: string; crcValid: boolean }): DecodeResult {
  const texts = avl.replies.filter((r) => r.text !== null).map((r) => r.text!);
  const state: Attributes = Object.assign({}, ...avl.replies.filter((r) => r.text === null && !r.camera).map((r) => r.attributes));
  const time = avl.replies.find((r) => r.time)?.time ?? null;
  if (texts.length) {
    const first = avl.replies.find((r) => r.text !== null)!;
    return commandResult(texts.join('\n'), o, { ...state, ...first.attributes, type: first.type });
  }
  if (Object.keys(state).length) return stateResult(state, new Alarms(), { ...o, deviceTime: time });
  if (avl.replies.some((r) => r.camera)) return ignoredResult('codec 12 camera image transfer is not supported', o);
  return ignoredResult('command message without content', o);
}

function resultFrom(avl: AvlData, crcValid: boolean, ack: Buffer): DecodeResult {
  const o = { type: codecLabel(avl.codec), crcValid };
  if (COMMAND_CODECS.has(avl.codec)) return repliesResult(avl, o);
  if (avl.positions.length) return positionsResult(avl.positions, { ...o, ack });
  const last = avl.locationless.at(-1);
  if (last) {
    const alarms = new Alarms();
    last.alarms.forEach((a) => alarms.add(a));
    return stateResult(last.attributes, alarms, { ...o, ack, deviceTime: last.time });
  }
  return ignoredResult(avl.count ? 'records without a real time' : 'packet without records', { ...o, ack });
}

function decodeTcpFrame(frame: Buffer, session: TeltonikaSession): DecodeResult {
  if (frame.length === 1 && frame[0] === KEEPALIVE_BYTE) return { kind: 'heartbeat', positions: [], crcValid: true, type: 'ping' };
  if (frame.length < 2) throw new DecodeError('bad_frame', 'teltonika: frame too short');
  const imeiLength = frame.readUInt16BE(0);
  if (imeiLength > 0) {
    if (frame.length !== imeiLength + 2) throw new DecodeError('bad_frame', 'teltonika: IMEI frame length mismatch');
    const imei = readImei(frame, 2, imeiLength);
    session.deviceId = imei;
    return { kind: 'login', deviceId: imei, positions: [], ack: encodeImeiAck(true), crcValid: true, type: 'imei' };
  }
  if (frame.length < 12 || frame.readUInt32BE(0) !== 0) throw new DecodeError('bad_frame', 'teltonika: not an AVL packet');
  const dataLength = frame.readUInt32BE(4);
  if (frame.length !== 8 + dataLength + 4) throw new DecodeError('bad_frame', 'teltonika: AVL packet length mismatch');
  const data = frame.subarray(8, 8 + dataLength);
  const crcValid = crc16Arc(data) === frame.readUInt32BE(8 + dataLength);
  const avl = parseAvlData(data, session.deviceId, session.teltonikaGroup16 === true);
  session.teltonikaGroup16 = avl.group16;
  return resultFrom(avl, crcValid, encodeTcpAck(avl.count));
}

function guard<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof DecodeError) throw err;
    throw new DecodeError(err instanceof RangeError ? 'truncated' : 'malformed', `teltonika ${what}: ${(err as Error).message}`);
  }
}

/** Decodes one TCP frame: IMEI handshake, AVL packet or keep-alive. Throws only DecodeError. */
export function decodeTeltonika(frame: Buffer, session: TeltonikaSession): DecodeResult {
  return guard('tcp', () => decodeTcpFrame(frame, session));
}

/**
 * Decodes one UDP datagram: `<length:2> <packet id:2> <packet type:1> <AVL packet id:1>
 * <IMEI length:2> <IMEI> <AVL data>` (no CRC: UDP has its own checksum, so crcValid is true).
 */
export function decodeTeltonikaUdp(datagram: Buffer): DecodeResult & { deviceId: string } {
  return guard('udp', () => {
    if (datagram.length < 8) throw new DecodeError('bad_frame', 'teltonika udp: datagram too short');
    const length = datagram.readUInt16BE(0);
    if (length + 2 > datagram.length || length < 6) throw new DecodeError('bad_frame', 'teltonika udp: length field exceeds datagram');
    const packet = datagram.subarray(0, length + 2);
    const packetId = packet.readUInt16BE(2);
    const avlPacketId = packet.readUInt8(5);
    const imeiLength = packet.readUInt16BE(6);
    const imei = readImei(packet, 8, imeiLength);
    const avl = parseAvlData(packet.subarray(8 + imeiLength), imei);
    const result = resultFrom(avl, true, encodeUdpAck(packetId, avlPacketId, avl.count));
    if (COMMAND_CODECS.has(avl.codec)) delete result.ack;
    result.deviceId = imei;
    return result as DecodeResult & { deviceId: string };
  });
}
