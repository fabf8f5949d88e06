import { describe, expect, it } from 'vitest';
import { crc16Arc, crc16Kermit, crc16X25 } from './crc16';

// check values: the catalogue of parametrised CRC algorithms, each over the ASCII digits "123456789"
const CHECK = Buffer.from('123456789', 'ascii');

describe('CRC-16', () => {
  it('gives each variant its catalogued check value', () => {
    expect(crc16Arc(CHECK)).toBe(0xbb3d);
    expect(crc16Kermit(CHECK)).toBe(0x2189);
    expect(crc16X25(CHECK)).toBe(0x906e);
  });

  it('answers the starting register, xored out, for no data', () => {
    expect(crc16Arc(Buffer.alloc(0))).toBe(0);
    expect(crc16X25(Buffer.alloc(0))).toBe(0);
  });
});
