/**
 * Table-driven reflected CRC-16 (refin = refout = true, no final xor), the family of CRC-16/ARC,
 * KERMIT and X-25's core. Returns the checksum function for `poly` given reflected (0x8408 for
 * 0x1021, 0xA001 for 0x8005).
 */
export function reflectedCrc16(reflectedPoly: number, init = 0): (data: Uint8Array) => number {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ reflectedPoly : crc >>> 1;
    table[i] = crc;
  }
  return (data) => {
    let crc = init;
    for (let i = 0; i < data.length; i++) crc = (crc >>> 8) ^ table[(crc ^ data[i]!) & 0xff]!;
    return crc & 0xffff;
  };
}
