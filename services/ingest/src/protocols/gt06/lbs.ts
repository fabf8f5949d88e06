import type { ByteReader } from '../byte-reader';
import { macOf as mac, networkAttributes, type Cell } from '../network';
import type { DecodeResult } from '../protocol';
import type { Attributes } from '../result';
import { readBcdDateTime, readDateTime, readGps, readLbs } from './blocks';
import { Alarms, Gt06Message } from './message';

/**
 * GT06 cell-tower and Wi-Fi reports without a fix (facts from the Concox GT06 / JM-VL03 / GK310
 * documents as Traccar's Gt06ProtocolDecoder reads them). They become state records: the device
 * time, the serving cell (mcc, mnc, lac, cid), and every cell and access point as text
 * (`cells`: `mcc/mnc/lac/cid/rssi` space-separated, rssi negative as Traccar keeps it; `wifi`: `mac/signal`) for a later geolocation.
 *
 * - multi-cell: 0x28 0x2E 0x24 (7 cells), 0x18 0x2C (7 cells + Wi-Fi), 0xA1 (4G: lac 4, cid 8),
 *   0xA2 (4G + Wi-Fi), 0x33 (6 cells, cid 4, + Wi-Fi), 0x34 (SL4X: cid 4); WANWAY_S20 0x24 sends
 *   the timing advance first and a cell count; SR411_MINI 0x24 is a GPS fix with one cell.
 * - Wi-Fi: 0x17 / 0x69 (BCD time; the length byte is the access-point count; no serial or CRC;
 *   answered with `78 78 00 <type> <time> 0D 0A`), 0xF3 (count byte, no cells, no reply).
 */
export const MULTI_CELL_TYPES = new Set([0x18, 0x24, 0x28, 0x2c, 0x2e, 0xa1, 0xa2, 0x33, 0x34]);
const WITH_WIFI = new Set([0x18, 0x2c, 0xa2, 0x33]);

function readWifi(r: ByteReader, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const address = mac(r.bytes(6));
    out.push(`${address}/${r.u8()}`);
  }
  return out;
}

/** Multi-cell reports (see above); SR411_MINI 0x24 carries a fix and is decoded as a position. */
export function decodeMultiCell(m: Gt06Message): DecodeResult {
  const { r } = m;
  if (m.type === 0x24 && m.variant === 'SR411_MINI') {
    const gps = readGps(r, m.tz);
    const a: Attributes = {};
    const cell = readLbs(r);
    if (cell) Object.assign(a, { mcc: cell.mcc, mnc: cell.mnc, lac: cell.lac, cid: cell.cid });
    a.ignition = r.u8() > 0;
    a.power = r.u16() / 100;
    a.battery = r.u16() / 100;
    return m.located(gps, a, new Alarms());
  }
  const time = readDateTime(r, m.tz);
  const leadingTa = m.variant === 'WANWAY_S20' || m.variant === 'SL4X';
  if (leadingTa) r.skip(1); // timing advance
  const mccRaw = r.u16();
  const mcc = mccRaw & 0x7fff;
  const mnc = (mccRaw & 0x8000) !== 0 || m.variant === 'SL4X' ? r.u16() : r.u8();
  const count = m.variant === 'WANWAY_S20' ? r.u8() : m.type === 0x33 ? 6 : 7;
  const cells: Cell[] = [];
  for (let i = 0; i < count; i++) {
    const fourG = m.type === 0xa1 || m.type === 0xa2;
    const lac = fourG ? r.u32() : r.u16();
    const cid = fourG ? r.u64() : m.type === 0x33 || m.type === 0x34 ? r.u32() : r.u24();
    const rssi = -r.u8();
    if (lac > 0) cells.push({ mcc, mnc, lac, cid, rssi });
  }
  if (!leadingTa) r.skip(1); // timing advance
  const wifi = WITH_WIFI.has(m.type) ? readWifi(r, r.u8()) : [];
  return m.state(networkAttributes(cells, wifi), new Alarms(), m.ack(), time);
}

/**
 * Wi-Fi reports 0x17 / 0x69 (and 0xF3). The 7878 length byte of 0x17 / 0x69 is the access-point
 * count and the frame has no serial or CRC, so the whole payload is the body.
 */
export function decodeWifi(m: Gt06Message): DecodeResult {
  const wide = m.type === 0xf3;
  const body = wide ? m.env.body : m.env.payload;
  const env = wide ? m.env : { ...m.env, body, crcValid: true };
  const msg = new Gt06Message(env, m.session, body);
  const { r } = msg;
  const timeBytes = body.subarray(0, 6);
  // 0x17 / 0x69 send the time as BCD digits (Traccar reads them so); 0xF3 captures carry binary values.
  const time = wide ? readDateTime(r, 0) : readBcdDateTime(r);
  const count = wide ? r.u8() : m.env.declared;
  const wifi: string[] = [];
  for (let i = 0; i < count; i++) {
    if (wide) r.skip(2);
    const address = mac(r.bytes(6));
    wifi.push(wide ? address : `${address}/${r.u8()}`);
  }
  const cells: Cell[] = [];
  let ack: Buffer | null = null;
  if (!wide) {
    const cellCount = r.u8();
    const mcc = r.u16();
    const mnc = r.u8();
    for (let i = 0; i < cellCount; i++) cells.push({ mcc, mnc, lac: r.u16(), cid: r.u16(), rssi: -r.u8() });
    ack = Buffer.concat([Buffer.from([0x78, 0x78, 0x00, m.type]), timeBytes, Buffer.from([0x0d, 0x0a])]);
  }
  return msg.state(networkAttributes(cells, wifi), new Alarms(), ack, time);
}
