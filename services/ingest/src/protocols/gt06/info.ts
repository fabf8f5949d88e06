import { ByteReader } from '../byte-reader';
import type { DecodeResult } from '../protocol';
import type { Attributes } from '../result';
import { readDateTime } from './blocks';
import { Alarms, type Gt06Message } from './message';

/**
 * GT06 text, information and device-data packets without a fix (facts from the Concox GT06 /
 * GT800 / JM-VL03 documents as Traccar's Gt06ProtocolDecoder reads them):
 * - 0x15 command reply: length(1) server flag(4) ASCII text; `<ICCID:...>` replies carry the ICCID.
 * - 0x21 command reply (extended): server flag(4) encoding(1: 1 ASCII, else UTF-16BE) text; a
 *   `Current position!Lat:...` reply is a fix.
 * - 0x94 information transmission: 7878 form = external voltage (0.01 V); 7979 form by sub-type:
 *   0x00 external voltage (adc1), 0x04 status text (ALM1..3, STA1, DYD), 0x05 door, 0x0A
 *   IMEI/IMSI/ICCID, 0x0B network or power, 0x0D fuel sensor text, 0x1B serial/RFID, 0x1E
 *   temperature and humidity.
 * - 0x9B serial pass-through (extended): device type(1) data, printable text or hex, as a result.
 * - 0x8C OBD (extended): time, ACC, `key=hexvalue` pairs (odometer, fuel, coolant, speed, rpm,
 *   fuel used, hours, VIN).
 * - 0x40 BMS (WD-209 e-bike battery) and 0xF2 peripherals (VL842: BLE tags, external battery).
 */
const PRINTABLE = (b: number): boolean => (b >= 0x20 && b <= 0x7f) || b === 0x0d || b === 0x0a;

function text(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/\0+$/, '');
}

/** 0x15: `<ICCID:...>` replies are device state; the rest are command results. */
export function decodeString(m: Gt06Message): DecodeResult {
  const { r } = m;
  const length = r.u8();
  let reply: string;
  if (length >= 4) {
    r.skip(4); // server flag
    reply = text(r.bytes(Math.min(length - 4, r.remaining)));
  } else {
    // A zero length with the text after the flag (captured from fuel-cut replies): text up to the language word.
    r.skip(Math.min(4, r.remaining));
    reply = text(r.bytes(Math.max(0, r.remaining - 2)));
  }
  if (reply.startsWith('<ICCID:')) return m.state({ iccid: reply.slice(7, 27) }, new Alarms());
  return m.result(reply, m.ack());
}

const CURRENT_POSITION =
  /^Current position!Lat:([NS])(\d+\.\d+),Lon:([EW])(\d+\.\d+),Course:(\d+\.\d+),Speed:(\d+\.\d+),DateTime:(\d{4})-(\d\d)-(\d\d) +(\d\d):(\d\d):(\d\d)/;

/** 0x21 (extended or basic): the reply text, or the fix a `Current position!` reply carries. */
export function decodeStringInfo(m: Gt06Message): DecodeResult {
  const { r } = m;
  r.skip(4); // server flag
  const encoding = r.u8();
  const raw = r.bytes(r.remaining);
  const reply =
    encoding === 1
      ? raw.toString('latin1')
      : Buffer.from(raw.subarray(0, raw.length & ~1))
          .swap16()
          .toString('utf16le');
  const ack = m.env.extended ? null : m.ack();
  const p = CURRENT_POSITION.exec(reply);
  if (p) {
    const g = (i: number): number => Number(p[i]);
    const latitude = (p[1] === 'S' ? -1 : 1) * g(2);
    const longitude = (p[3] === 'W' ? -1 : 1) * g(4);
    const fixTime = new Date(Date.UTC(g(7), g(8) - 1, g(9), g(10), g(11), g(12)));
    return m.located(
      { fixTime, satellites: null, latitude, longitude, speed: g(6), course: g(5), valid: true, ignition: null },
      {},
      new Alarms(),
      ack,
    );
  }
  return m.result(reply.replace(/\0+$/, ''), ack);
}

function parseStatusText(content: string, a: Attributes): void {
  for (const pair of content.split(';')) {
    const [key, value] = pair.split('=');
    const number = value !== undefined && /^[0-9A-Fa-f]+$/.test(value) ? parseInt(value, 16) : null;
    if (number === null) continue;
    if (key === 'ALM1' || key === 'ALM2' || key === 'ALM3') a[`alarm${key.charAt(3)}Status`] = number;
    else if (key === 'STA1') a.otherStatus = number;
    else if (key === 'DYD') a.engineStatus = number;
  }
}

/** `!AIOIL,<addr>,<output>,<temperature>,<version>,<wave><sw><hw>,<measured>,<moving>,<count>,<checksum>` */
const FUEL_SENSOR = /!AIOIL,\d+,\d+\.\d+,(\d+\.\d+),[^,]+,\d\d\d\d,(\d+\.\d+),[01],\d+,[0-9A-Fa-f]{2}/;

/** 0x94 information transmission. */
export function decodeInfo(m: Gt06Message): DecodeResult {
  const { r } = m;
  const alarms = new Alarms();
  if (!m.env.extended) return m.state({ power: r.i16() / 100 }, alarms, null);
  const subType = r.u8();
  const a: Attributes = {};
  let deviceTime: Date | null = null;
  switch (subType) {
    case 0x00:
      a.adc1 = r.u16() / 100;
      break;
    case 0x04:
      parseStatusText(r.bytes(r.remaining).toString('latin1'), a);
      break;
    case 0x05:
      if (r.remaining >= 7) deviceTime = readDateTime(r, m.tz);
      {
        const flags = r.u8();
        a.door = (flags & 0x01) !== 0;
        a.io1 = (flags & 0x04) !== 0;
      }
      break;
    case 0x0a:
      r.skip(16); // IMEI, IMSI
      a.iccid = r.bytes(10).toString('hex').replace(/f/g, '');
      break;
    case 0x0b:
      if (r.remaining === 1) a.networkTechnology = r.u8() > 0 ? '4G' : '2G';
      else if (r.remaining === 2) a.power = r.u16() / 100;
      else return m.ignored(`0x94 sub-type 0x0b with ${r.remaining} data bytes: layout not public`);
      break;
    case 0x0d: {
      if (r.peek() !== 0x21) r.skip(Math.min(6, r.remaining)); // time before the sensor text
      const fuel = FUEL_SENSOR.exec(r.bytes(r.remaining).toString('latin1'));
      if (!fuel) return m.ignored('0x94 sub-type 0x0d: fuel sensor text not understood');
      a.temp1 = Number(fuel[1]);
      a.fuel = Number(fuel[2]);
      break;
    }
    case 0x1b:
      if (/[A-Za-z]/.test(String.fromCharCode(r.peek() ?? 0))) {
        a.serial = r.bytes(r.remaining).toString('latin1').trim();
      } else {
        r.skip(2); // header, type
        a.driverUniqueId = r.bytes(4).toString('hex');
      }
      break;
    case 0x1e:
      a.temp1 = r.i32() / 10;
      a.humidity = r.i32() / 10;
      break;
    default:
      return m.ignored(`0x94 sub-type 0x${subType.toString(16).padStart(2, '0')}: layout not public`);
  }
  return m.state(a, alarms, null, deviceTime);
}

/** 0x9B serial pass-through from an external device: printable text, otherwise hex. */
export function decodeSerial(m: Gt06Message): DecodeResult {
  const { r } = m;
  r.skip(1); // external device type
  const data = r.bytes(r.remaining);
  const reply = data.length && data.every(PRINTABLE) ? data.toString('latin1').trim() : data.toString('hex');
  return m.result(reply);
}

/** OBD keys (first two hex digits of each `key=value` pair) → Traccar key and scale. */
const OBD_KEYS: ReadonlyMap<number, [string, number]> = new Map([
  [0x28, ['odometer', 0.01]],
  [0x2b, ['fuel', 0.01]],
  [0x2d, ['coolantTemp', 0.01]],
  [0x35, ['obdSpeed', 0.01]],
  [0x36, ['rpm', 0.01]],
  [0x47, ['fuelUsed', 0.01]],
  [0x49, ['hours', 0.01]],
]);
const OBD_VIN = 0x4a;
/** Bytes after the OBD text that Traccar skips (not described publicly). */
const OBD_TRAILER = 12;

export function decodeObd(m: Gt06Message): DecodeResult {
  const { r } = m;
  const deviceTime = readDateTime(r, m.tz);
  const a: Attributes = { ignition: r.u8() > 0 };
  const data = r.bytes(Math.max(0, r.remaining - OBD_TRAILER)).toString('latin1');
  for (const pair of data.split(',')) {
    const [key, value] = pair.split('=');
    if (!key || !value || !/^[0-9A-Fa-f]{2}/.test(key)) continue;
    const id = parseInt(key.slice(0, 2), 16);
    if (id === OBD_VIN) a.vin = value;
    const spec = OBD_KEYS.get(id);
    if (spec && /^[0-9A-Fa-f]{1,8}$/.test(value)) a[spec[0]] = Math.round(parseInt(value, 16) * spec[1] * 100) / 100;
  }
  return m.state(a, new Alarms(), null, deviceTime);
}

/** 0x40 battery management report (WD-209). */
export function decodeBms(m: Gt06Message): DecodeResult {
  const { r } = m;
  r.skip(8); // serial number
  const deviceTime = new Date(r.u32() * 1000);
  const a: Attributes = {
    relativeCapacity: r.u8(),
    remainingCapacity: r.u16(),
    absoluteCapacity: r.u8(),
    fullCapacity: r.u16(),
    batteryHealth: r.u8(),
    batteryTemp: Math.round((r.u16() * 0.1 - 273.1) * 10) / 10,
    current: r.u16(),
    battery: r.u16() / 1000,
    cycleIndex: r.u16(),
  };
  for (let i = 1; i <= 14; i++) a[`batteryCell${i}`] = r.u16() / 1000;
  a.currentChargeInterval = r.u16();
  a.maxChargeInterval = r.u16();
  a.barcode = r.bytes(16).toString('latin1').trim();
  a.batteryVersion = r.u16();
  a.manufacturer = r.bytes(16).toString('latin1').trim();
  a.batteryStatus = r.u32();
  a.controllerStatus = r.u32();
  a.controllerFault = r.u32();
  return m.state(a, new Alarms(), m.ack(), deviceTime);
}

/** 0xF2 peripheral status (VL842): time, then status blocks (0x0A BLE tag event, 0x0C external battery). */
export function decodePeripheral(m: Gt06Message): DecodeResult {
  const { r } = m;
  const deviceTime = new Date(r.u32() * 1000);
  const a: Attributes = {};
  while (r.remaining >= 3) {
    const statusId = r.u16();
    if (statusId === 0x000a) {
      const s = new ByteReader(r.bytes(r.u16()), 'gt06');
      s.skip(1); // MAC address type
      a.mac = s.bytes(6).toString('hex');
      const event = s.u8();
      a.event = event;
      const eventData = s.u8();
      if (event > 0) a.eventData = eventData;
      a.dataType = s.u8();
      a.dataDetails = s.bytes(s.remaining).toString('hex');
    } else if (statusId === 0x000c) {
      const s = new ByteReader(r.bytes(r.u8()), 'gt06');
      a.externalBatteryLevel = s.u8();
      if (s.u8() > 0) a.externalBatteryCharge = true;
      a.externalBatteryCycles = s.u16();
    } else {
      const length = r.u8();
      r.skip(length === 0 ? r.u8() : length);
    }
  }
  return m.state(a, new Alarms(), m.ack(false), deviceTime);
}
