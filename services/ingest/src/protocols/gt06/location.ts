import type { DecodeResult } from '../protocol';
import type { Attributes } from '../result';
import { GT06_ALARM_BYTE } from './alarms';
import { batteryLevelOf, cellAttributes, readDateTime, readGps, readLbs, readTerminalInfo, type LbsWidths } from './blocks';
import { Alarms, Gt06Message } from './message';

/**
 * The GT06 location, alarm and status family: one layout of optional blocks (GPS, serving cell,
 * status) followed by type- and variant-specific tails. Facts from the Concox GT06 / GT06N /
 * JM-VL01 / JM-VL03 protocol documents as Traccar's Gt06ProtocolDecoder (2024) reads them; the
 * meanings Traccar picks by configured device model are left at their defaults.
 *
 * GPS: 0x10 0x11 0x12 0x16 0x17(RFID) 0x1A 0x1E 0x22 0x26 0x27 0x2D 0x31 0x32 0x37 0xA0 0xA2(LW4G) 0xA3 0xA4
 * cell: the GPS types except 0x10 0x1A 0x1E, plus 0x19 0xA5 0xA7
 * status: 0x13 0x16 0x19 0x26 0x27 0x32 0x36 0xA2(LW4G) 0xA4 0xA5, 0xA3 on SEEWORLD
 */
const GPS_TYPES = new Set([0x10, 0x11, 0x12, 0x16, 0x1a, 0x1e, 0x22, 0x26, 0x27, 0x2d, 0x31, 0x32, 0x37, 0xa0, 0xa3, 0xa4]);
const LBS_TYPES = new Set([0x11, 0x12, 0x16, 0x19, 0x22, 0x26, 0x27, 0x2d, 0x31, 0x32, 0x37, 0xa0, 0xa3, 0xa4, 0xa5, 0xa7]);
const STATUS_TYPES = new Set([0x13, 0x16, 0x19, 0x26, 0x27, 0x32, 0x36, 0xa4, 0xa5]);
/** Types whose status block is followed by a language word (the alarm takes its low nibble). */
const LANGUAGE_AFTER_STATUS = new Set([0x27, 0xa4]);
const ACC_EVENT_TYPES = new Set([0x22, 0x2d, 0x31, 0x37]);

/** The types this module decodes (with the variants that make 0x17 / 0xA2 location packets). */
export function isLocationFamily(m: Gt06Message): boolean {
  return (
    GPS_TYPES.has(m.type) ||
    LBS_TYPES.has(m.type) ||
    STATUS_TYPES.has(m.type) ||
    (m.type === 0x17 && m.variant === 'RFID') ||
    (m.type === 0xa2 && m.variant === 'LW4G')
  );
}

function hasGps(m: Gt06Message): boolean {
  if (m.type === 0xa3) return m.variant !== 'SEEWORLD';
  return GPS_TYPES.has(m.type) || (m.type === 0x17 && m.variant === 'RFID') || (m.type === 0xa2 && m.variant === 'LW4G');
}

function hasLbs(m: Gt06Message): boolean {
  if (m.type === 0xa3) return m.variant !== 'SEEWORLD';
  return LBS_TYPES.has(m.type) || (m.type === 0x17 && m.variant === 'RFID') || (m.type === 0xa2 && m.variant === 'LW4G');
}

function hasStatus(m: Gt06Message): boolean {
  if (m.type === 0xa3) return m.variant === 'SEEWORLD';
  if (m.variant === 'NT20') return true;
  return STATUS_TYPES.has(m.type) || (m.type === 0xa2 && m.variant === 'LW4G');
}

function lbsWidths(m: Gt06Message): LbsWidths {
  const lw4g = m.type === 0xa2 && m.variant === 'LW4G';
  const fourG = m.type === 0xa0 || m.type === 0xa5 || lw4g;
  return {
    hasLength: hasStatus(m) && m.type !== 0x19 && m.type !== 0xa5 && !(m.type === 0x16 && m.variant === 'VXT01') && !lw4g,
    wideMnc: m.type === 0x11 || m.variant === 'SL4X',
    wideLac: fourG,
    // SL4X: Traccar reads an 8-byte cell id, but the public SL4X captures only make sense with 4
    // (LTE cell ids of 28 bits, and the altitude then lands on the bytes before the serial).
    cidBytes: fourG ? 8 : m.type === 0x11 || m.variant === 'SEEWORLD' || m.variant === 'SL4X' ? 4 : 3,
  };
}

/** 0x13 with a 16-byte body (newer Concox firmware): battery level % and temperature (0.1 °C, bit 15 = positive). */
function decodeLongStatus(m: Gt06Message): DecodeResult {
  const { r } = m;
  r.skip(5); // information content, satellites(2), alarm, language
  const batteryLevel = r.u8();
  r.skip(8); // working mode, voltage(2), reserved, working times(2), working time(2)
  const raw = r.u16();
  const temperature = (raw & 0x7fff) / 10;
  return m.state({ batteryLevel, temp1: (raw & 0x8000) !== 0 ? temperature : -temperature }, new Alarms());
}

/** OBD6 status (0x13, length 0x13): signal word with satellites, alarm, battery %, power and temperature. */
function readObd6Status(m: Gt06Message, a: Attributes, alarms: Alarms): void {
  const { r } = m;
  const signal = r.u16();
  a.sat = ((signal >> 10) & 0x1f) + ((signal >> 5) & 0x1f);
  a.rssi = signal & 0x1f;
  alarms.add(GT06_ALARM_BYTE.get(r.u8()));
  r.skip(1); // language
  a.batteryLevel = r.u8();
  const mode = r.u8();
  a.power = r.u16() / 100;
  r.skip(3); // reserved, working time
  if (mode === 4) a.temp1 = r.i16() / 10;
}

function readStatus(m: Gt06Message, a: Attributes, alarms: Alarms): void {
  const { r } = m;
  const lw4g = m.type === 0xa2 && m.variant === 'LW4G';
  if (lw4g) r.skip(1); // network indicator
  readTerminalInfo(r.u8(), a, alarms, m.variant === 'VXT01');
  if (m.variant === 'OBD6') return readObd6Status(m, a, alarms);
  if (lw4g || m.variant === 'NT20') a.power = r.u16() / 100;
  if (r.remaining === 0) return;
  const level = batteryLevelOf(m.variant === 'NT20' ? Math.trunc(r.u8() / 10) : r.u8());
  if (level !== null) a.batteryLevel = level;
  if (r.remaining === 0) return;
  a.rssi = r.u8();
  if (r.remaining === 0) return;
  let extension = r.u8();
  if (LANGUAGE_AFTER_STATUS.has(m.type)) extension += ((r.peek() ?? 0) & 0x0f) << 8;
  if (m.variant !== 'VXT01') alarms.add(GT06_ALARM_BYTE.get(extension));
}

/** 0x36 (Jimi 4G status): language, then modules type(2) length(1) value. */
function readStatusModules(m: Gt06Message, a: Attributes): void {
  const { r } = m;
  while (r.remaining >= 3) {
    const moduleType = r.u16();
    const length = r.u8();
    if (moduleType === 0x0018) a.battery = r.u16() / 100;
    else if (moduleType === 0x0032) a.startupStatus = r.u8();
    else if (moduleType === 0x006a) a.batteryLevel = r.u8();
    else r.skip(length);
  }
}

function signedMagnitude(value: number, signBit: number): number {
  return (value & (1 << signBit)) !== 0 ? -(value & ((1 << signBit) - 1)) : value;
}

/** The 0x12 variants that append device data after the cell. */
function readGpsLbs1Tail(m: Gt06Message, a: Attributes, alarms: Alarms): void {
  const { r } = m;
  switch (m.variant) {
    case 'GT06E_CARD': {
      a.odometer = r.u32();
      const card = r.bytes(r.u8()).toString('latin1').trim();
      if (card) a.card = card;
      r.skip(2); // alarm, swiped
      return;
    }
    case 'BENWAY': {
      const mask = r.u16();
      a.ignition = (mask & 0x8000) !== 0;
      a.in2 = (mask & 0x4000) !== 0;
      if ((mask & 0x1000) !== 0) a.temp1 = (mask & 0x0200) !== 0 ? -(mask & 0x01ff) : mask & 0x01ff;
      else a.adc1 = (mask & 0x2000) !== 0 ? mask & 0x03ff : (mask & 0x03ff) / 10;
      return;
    }
    case 'VXT01':
      readTerminalInfo(r.u8(), a, alarms, true);
      a.power = r.u16() / 100;
      a.rssi = r.u8();
      r.skip(1); // alarm extension
      return;
    case 'S5':
      readTerminalInfo(r.u8(), a, alarms);
      a.power = r.u16() / 100;
      a.rssi = r.u8();
      alarms.add(GT06_ALARM_BYTE.get(r.u8()));
      a.oil = r.u16();
      a.temp1 = signedMagnitude(r.u8(), 7);
      a.odometer = r.u32() * 10;
      return;
    case 'WETRUST':
      a.odometer = r.u32();
      a.card = r.bytes(r.u8()).toString('latin1');
      if (r.u8() > 0) alarms.add('general');
      a.cardStatus = r.u8();
      a.drivingTime = r.u16();
      return;
    default:
  }
}

function readTails(m: Gt06Message, a: Attributes, alarms: Alarms): void {
  const { r } = m;
  if (m.type === 0x36 || LANGUAGE_AFTER_STATUS.has(m.type) || (m.type === 0xa2 && m.variant === 'LW4G') || m.variant === 'NT20') {
    if (r.remaining > 0) r.skip(1); // language
  }
  if (m.type === 0x36) readStatusModules(m, a);
  if (m.type === 0xa2 && m.variant === 'LW4G') {
    a.odometer = r.u32();
    a.hours = r.u32() * 1000;
    r.skip(8); // terminal id
    a.input = r.u16();
  }
  if (m.type === 0x12) readGpsLbs1Tail(m, a, alarms);
  if (m.type === 0x22 && m.variant === 'SEEWORLD') {
    a.ignition = r.u8() > 0;
    r.skip(2); // reporting mode, supplementary transmission
    a.odometer = r.u32();
    r.skip(4); // travel time
    a.temp1 = signedMagnitude(r.u16(), 15) * 0.01;
    a.humidity = r.u16() * 0.01;
  }
  if (m.type === 0x32 && m.variant === 'SL4X') {
    if (r.remaining > 0) r.skip(1); // language
    if (r.remaining >= 2) a.altitude = r.i16();
  }
  if (ACC_EVENT_TYPES.has(m.type) && r.remaining >= 3 && m.variant !== 'NT20') {
    a.ignition = r.u8() > 0;
    a.event = r.u8(); // upload reason
    a.archive = r.u8() > 0; // re-uploaded from memory
    if (m.variant === 'SL4X') {
      if (r.remaining > 2) a.odometer = r.u32();
      a.altitude = r.i16();
    }
  }
  if (m.type === 0x37 && r.remaining >= 3) {
    const module = r.u16();
    const length = r.u8();
    if (module === 0x0027) a.power = r.u16() / 100;
    else if (module === 0x002e) a.odometer = r.u32();
    else if (module === 0x003b) a.accuracy = r.u16() / 100;
    else r.skip(Math.min(length, r.remaining));
  }
  if (m.type === 0x17 && m.variant === 'RFID') {
    a.driverUniqueId = r.bytes(8).toString('hex');
    r.skip(1); // validity
  }
  if (m.variant === 'NT20') {
    a.odometer = r.u24();
    a.hours = r.u24() * 60_000;
  }
  if (r.remaining === 3 || r.remaining === 7) {
    a.ignition = r.u8() > 0;
    r.skip(1); // upload mode
    if (r.u8() > 0) a.archive = true;
  }
  if (r.remaining === 4) a.odometer = r.u32();
  if (LANGUAGE_AFTER_STATUS.has(m.type) && r.remaining > 0) a.geofence = r.u8();
}

/**
 * Some firmwares send a location type as the bare GPS block (0x10) or with a few bytes that are not
 * a serial and CRC (0x11): the GPS block is read from everything between the protocol number and
 * the 0D0A; there is no CRC to check and no serial to acknowledge.
 */
function decodeGpsOnly(m: Gt06Message): DecodeResult {
  const msg = new Gt06Message({ ...m.env, crcValid: true }, m.session, m.env.payload);
  return msg.located(readGps(msg.r, msg.tz), {}, new Alarms(), null);
}

export function decodeLocationFamily(m: Gt06Message): DecodeResult {
  if (m.type === 0x13 && m.env.body.length === 16) return decodeLongStatus(m);
  if (m.type === 0x19 && m.variant === 'SPACE10X') {
    // Traccar sends no reply either; the layout of this several-cell form is not public.
    return m.ignored('0x19 SPACE10X several-cell status: layout not public');
  }
  // An empty location packet (a 78 78 05 12 ... acknowledgement echoed back): nothing to store or answer.
  if (m.env.body.length === 0) return m.ignored('empty packet (an acknowledgement echoed back)');
  if (hasGps(m) && m.env.body.length < 18 && m.env.payload.length >= 18) return decodeGpsOnly(m);
  const a: Attributes = {};
  const alarms = new Alarms();
  let deviceTime: Date | null = null;
  if (m.variant === 'QH302R') m.r.skip(8); // IMEI
  if (m.variant === 'NT20') {
    m.r.skip(9); // location source type, IMEI
    deviceTime = readDateTime(m.r, m.tz);
  }
  const gps = hasGps(m) ? readGps(m.r, m.tz) : null;
  if (hasLbs(m) && m.r.remaining > 0) Object.assign(a, cellAttributes(readLbs(m.r, lbsWidths(m))));
  if (hasStatus(m)) readStatus(m, a, alarms);
  readTails(m, a, alarms);
  return m.located(gps, a, alarms, m.ack(), deviceTime);
}
