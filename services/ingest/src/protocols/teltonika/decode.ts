import { DecodeError, type DecodeResult, type ProtocolSession } from '../protocol';
import { encodeImeiAck, encodeTcpAck, encodeUdpAck } from './ack';
import { CODEC, parseAvlData, type AvlData } from './avl';
import { crc16Ibm, KEEPALIVE_BYTE, MAX_IMEI_LENGTH } from './frame';

/** Teltonika decoders for TCP frames (as cut by splitTeltonikaFrames) and UDP datagrams. */

const IMEI_PATTERN = /^[0-9]{1,32}$/;

function readImei(buf: Buffer, at: number, length: number): string {
  if (length === 0 || length > MAX_IMEI_LENGTH || at + length > buf.length) {
    throw new DecodeError('bad_imei', `teltonika: IMEI length ${length} does not fit`);
  }
  const imei = buf.toString('latin1', at, at + length);
  if (!IMEI_PATTERN.test(imei)) throw new DecodeError('bad_imei', 'teltonika: IMEI is not decimal digits');
  return imei;
}

function resultFrom(avl: AvlData, crcValid: boolean, ack: Buffer | undefined): DecodeResult {
  const commandResponse = avl.codec === CODEC.c12 || avl.codec === CODEC.c13;
  const alarms = avl.positions.flatMap((p) => (p.alarm ? p.alarm.split(',') : []));
  const result: DecodeResult = {
    kind: commandResponse ? 'ignored' : alarms.length > 0 ? 'alarm' : 'position',
    positions: avl.positions,
    crcValid,
  };
  if (ack) result.ack = ack;
  if (alarms.length > 0) result.events = alarms.map((alarm) => ({ alarm }));
  if (avl.attributes) result.attributes = avl.attributes;
  return result;
}

function decodeTcpFrame(frame: Buffer, session: ProtocolSession): DecodeResult {
  if (frame.length === 1 && frame[0] === KEEPALIVE_BYTE) return { kind: 'heartbeat', positions: [], crcValid: true };
  if (frame.length < 2) throw new DecodeError('bad_frame', 'teltonika: frame too short');
  const imeiLength = frame.readUInt16BE(0);
  if (imeiLength > 0) {
    if (frame.length !== imeiLength + 2) throw new DecodeError('bad_frame', 'teltonika: IMEI frame length mismatch');
    const imei = readImei(frame, 2, imeiLength);
    session.deviceId = imei;
    return { kind: 'login', deviceId: imei, positions: [], ack: encodeImeiAck(true), crcValid: true };
  }
  if (frame.length < 12 || frame.readUInt32BE(0) !== 0) throw new DecodeError('bad_frame', 'teltonika: not an AVL packet');
  const dataLength = frame.readUInt32BE(4);
  if (frame.length !== 8 + dataLength + 4) throw new DecodeError('bad_frame', 'teltonika: AVL packet length mismatch');
  const data = frame.subarray(8, 8 + dataLength);
  const crcValid = crc16Ibm(data) === frame.readUInt32BE(8 + dataLength);
  const avl = parseAvlData(data, session.deviceId);
  const commandResponse = avl.codec === CODEC.c12 || avl.codec === CODEC.c13;
  return resultFrom(avl, crcValid, commandResponse ? undefined : encodeTcpAck(avl.count));
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
export function decodeTeltonika(frame: Buffer, session: ProtocolSession): DecodeResult {
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
    const commandResponse = avl.codec === CODEC.c12 || avl.codec === CODEC.c13;
    const ack = commandResponse ? undefined : encodeUdpAck(packetId, avlPacketId, avl.count);
    const result = resultFrom(avl, true, ack);
    result.deviceId = imei;
    return result as DecodeResult & { deviceId: string };
  });
}
