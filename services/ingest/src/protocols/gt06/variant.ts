/**
 * GT06 firmware variants that reuse a message number with another layout, told apart by the
 * declared length (facts from Traccar's Gt06ProtocolDecoder, which names them after the devices
 * they were seen on). Only 7878 frames have variants.
 */
export type Gt06Variant =
  | 'STANDARD'
  | 'VXT01'
  | 'WANWAY_S20'
  | 'SR411_MINI'
  | 'GT06E_CARD'
  | 'BENWAY'
  | 'S5'
  | 'SPACE10X'
  | 'OBD6'
  | 'WETRUST'
  | 'JC400'
  | 'SL4X'
  | 'SEEWORLD'
  | 'RFID'
  | 'LW4G'
  /** 0x22 led by a source type and the device's IMEI (Traccar configures it as the NT20 model). */
  | 'NT20'
  /** 0x12 led by the device's IMEI (Traccar configures it as the QH302R model). */
  | 'QH302R';

/** [type, declared length (or a test), variant]; the first match wins. */
const RULES: [number, (length: number) => boolean, Gt06Variant][] = [
  [0x12, (l) => l === 0x24, 'VXT01'],
  [0x16, (l) => l === 0x24, 'VXT01'],
  [0x24, (l) => l === 0x31, 'WANWAY_S20'],
  [0x24, (l) => l === 0x2e, 'SR411_MINI'],
  [0x12, (l) => l >= 0x71, 'GT06E_CARD'],
  [0x12, (l) => l === 0x21, 'BENWAY'],
  [0x12, (l) => l === 0x2b, 'S5'],
  [0x19, (l) => l >= 0x17, 'SPACE10X'],
  [0x13, (l) => l === 0x13, 'OBD6'],
  [0x12, (l) => l === 0x29, 'WETRUST'],
  [0x34, (l) => l === 0x37, 'SL4X'],
  [0x31, (l) => l === 0x2a, 'SL4X'],
  [0x32, (l) => l === 0x27 || l === 0x29, 'SL4X'],
  [0x22, (l) => l === 0x2f, 'SEEWORLD'],
  [0x16, (l) => l === 0x26, 'SEEWORLD'],
  [0xa3, (l) => l === 0x0c, 'SEEWORLD'],
  [0x17, (l) => l === 0x28, 'RFID'],
  [0xa2, (l) => l === 0x40, 'LW4G'],
];

/** Whether `body` holds the 15-digit IMEI as 8 BCD bytes (leading zero nibble) at `at`. */
function imeiAt(body: Buffer, at: number, imei: string | undefined): boolean {
  return imei !== undefined && body.length >= at + 8 && body.subarray(at, at + 8).toString('hex') === `0${imei}`;
}

/**
 * Traccar tells NT20 and QH302R apart by the device model configured on the server; here the
 * device's own IMEI at the start of the body (which no other layout has there) identifies them.
 */
export function variantOf(extended: boolean, type: number, declaredLength: number, body: Buffer, imei?: string): Gt06Variant {
  if (extended) return 'STANDARD';
  if (type === 0x22 && imeiAt(body, 1, imei)) return 'NT20';
  if (type === 0x12 && imeiAt(body, 0, imei)) return 'QH302R';
  if (type === 0x95 && body.length >= 2 && body.readUInt16BE(0) === 0xffff) return 'JC400';
  return RULES.find(([t, test]) => t === type && test(declaredLength))?.[2] ?? 'STANDARD';
}
