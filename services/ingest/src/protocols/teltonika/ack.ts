/**
 * Teltonika acknowledgements (facts from Teltonika's Codec documentation):
 * - IMEI handshake: one byte, 0x01 accept / 0x00 reject;
 * - TCP AVL packet: the number of accepted records as a 4-byte big-endian integer;
 * - UDP AVL packet: `00 05 <packet id:2> 01 <AVL packet id:1> <record count:1>`.
 */
export function encodeImeiAck(accepted: boolean): Buffer {
  return Buffer.from([accepted ? 0x01 : 0x00]);
}

export function encodeTcpAck(recordCount: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(recordCount >>> 0, 0);
  return out;
}

export function encodeUdpAck(packetId: number, avlPacketId: number, recordCount: number): Buffer {
  const out = Buffer.alloc(7);
  out.writeUInt16BE(5, 0);
  out.writeUInt16BE(packetId & 0xffff, 2);
  out.writeUInt8(0x01, 4);
  out.writeUInt8(avlPacketId & 0xff, 5);
  out.writeUInt8(recordCount & 0xff, 6);
  return out;
}
