import { bcdDateTime } from '../bcd';
import type { DecodeResult } from '../protocol';
import { Alarms, positionOf, positionsResult, stateResult, type Attributes, type Fix } from '../result';
import { JT808_TIME_OFFSET_MINUTES } from './location';

/**
 * 0x0900 uplink transparent data (JT/T 808 section 8.62: a message type BYTE, then its content).
 * The payloads terminals send in practice, with the layouts Traccar's Jt808ProtocolDecoder reads:
 * - 0x40 text: a `GTSL|...` driver-card line (`driverUniqueId`, its fifth field) or other `data`;
 * - 0x41 OBD real-time text `$OBD-RT,<power V>,<rpm>,<speed>,<throttle %>,<load %>,<coolant>,
 *   <instant fuel>,<average fuel>,<trip km>,<odometer km>,<trip fuel used>,<fuel used>`;
 * - 0xF0 OBD box: time BCD (GMT+8), stored flag, vehicle type, then subtype 0x01 data stream
 *   (`id WORD, length BYTE, value`), 0x02 trouble codes, 0x03 alarms, 0x04 trip, 0x0B VIN,
 *   0x15 driving event; 0x01-0x03 end with the location (status DWORD, latitude and longitude
 *   DWORD, 1e-6 degrees) → a position at it;
 * - 0xFF position: time BCD, latitude and longitude INT32 (1e-6), altitude, speed 0.1 km/h, course;
 * - 0xF3 collision items; 0x53 Bluetooth tags and 0x54 sensor samples after a location block.
 * Any other type: its bytes as hex in `data` (a state record), so nothing the terminal sent is lost.
 */
const KNOTS_PER_KMH = 1 / 1.852;

type Options = { type: string; crcValid: boolean; deviceId: string; ack?: Buffer };

/** status DWORD, latitude and longitude DWORD (1e-6 degrees; status bits 2 south, 3 west, 1 valid). */
function coordinates(body: Buffer, at: number): { valid: boolean; latitude: number; longitude: number; ignition: boolean } {
  const status = body.readUInt32BE(at);
  const lat = body.readUInt32BE(at + 4) / 1e6;
  const lon = body.readUInt32BE(at + 8) / 1e6;
  return {
    valid: (status & 0x02) !== 0,
    latitude: status & 0x04 ? -lat : lat,
    longitude: status & 0x08 ? -lon : lon,
    ignition: (status & 0x01) !== 0,
  };
}

function located(
  fix: Fix | null,
  attributes: Attributes,
  alarms: Alarms,
  deviceId: string,
  o: Options,
  deviceTime: Date | null,
): DecodeResult {
  // a terminal without a fix yet reports 0, 0: its values are a state record
  const ok =
    fix &&
    (fix.valid || fix.latitude !== 0 || fix.longitude !== 0) &&
    Math.abs(fix.latitude) <= 90 &&
    Math.abs(fix.longitude) <= 180 &&
    fix.course <= 360 &&
    fix.speed <= 869;
  if (ok) return positionsResult([positionOf(fix, attributes, alarms, deviceId)], o);
  return stateResult(attributes, alarms, { ...o, deviceTime });
}

/** 0x41 `$OBD-RT,...` fields, in Traccar's keys. */
const OBD_RT: readonly (string | null)[] = [
  'power',
  'rpm',
  'obdSpeed',
  'throttle',
  'engineLoad',
  'coolantTemp',
  'fuelConsumption',
  'fuelConsumption',
  'tripOdometer',
  'obdOdometer',
  'tripFuelUsed',
  'fuelUsed',
];

/** The text from `from`, without the control bytes and spaces around it (Java's trim, as Traccar reads it). */
function text(body: Buffer, from: number): string {
  let start = from;
  let end = body.length;
  while (start < end && body[start]! <= 0x20) start++;
  while (end > start && body[end - 1]! <= 0x20) end--;
  return body.toString('latin1', start, end);
}

/** 0xF0 data stream ids (the OBD box's) → Traccar keys and readers. */
const STREAM: ReadonlyMap<number, [string, (v: Buffer) => number | string]> = new Map([
  [0x0102, ['odometer', (v) => v.readUInt32BE(0) * 100]],
  [0x0528, ['odometer', (v) => v.readUInt32BE(0) * 100]],
  [0x0546, ['odometer', (v) => v.readUInt32BE(0) * 100]],
  [0x0103, ['fuel', (v) => v.readUInt32BE(0) / 100]],
  [0x0111, ['fuelTemp', (v) => v.readUInt8(0) - 40]],
  [0x012e, ['oilLevel', (v) => v.readUInt16BE(0) / 10]],
  [0x052a, ['fuel', (v) => v.readUInt16BE(0) / 100]],
  [0x0105, ['fuelUsed', (v) => v.readUInt32BE(0) / 100]],
  [0x052c, ['fuelUsed', (v) => v.readUInt32BE(0) / 100]],
  [0x014a, ['fuelConsumption', (v) => v.readUInt16BE(0) / 100]],
  [0x0537, ['fuelConsumption', (v) => v.readUInt16BE(0) / 100]],
  [0x0538, ['fuelConsumption', (v) => v.readUInt16BE(0) / 100]],
  [0x0539, ['fuelConsumption', (v) => v.readUInt16BE(0) / 100]],
  [0x052b, ['fuel', (v) => v.readUInt8(0)]],
  [0x052d, ['coolantTemp', (v) => v.readUInt8(0) - 40]],
  [0x052e, ['airTemp', (v) => v.readUInt8(0) - 40]],
  [0x0530, ['power', (v) => v.readUInt16BE(0) / 1000]],
  [0x0535, ['obdSpeed', (v) => v.readUInt16BE(0) / 10]],
  [0x0536, ['rpm', (v) => v.readUInt16BE(0)]],
  [0x053d, ['intakePressure', (v) => v.readUInt16BE(0) / 10]],
  [0x0544, ['liquidLevel', (v) => v.readUInt8(0)]],
  [0x0547, ['throttle', (v) => v.readUInt8(0)]],
  [0x0548, ['throttle', (v) => v.readUInt8(0)]],
  [0xfeec, ['vin', (v) => v.toString('latin1')]],
]);

const F0_ALARMS: ReadonlyMap<number, string> = new Map([
  [0x01, 'powerRestored'],
  [0x02, 'powerCut'],
  [0x0e, 'idle'],
  [0x1a, 'hardAcceleration'],
  [0x1b, 'hardBraking'],
  [0x1c, 'hardCornering'],
  [0x1d, 'laneChange'],
  [0x1e, 'laneChange'],
  [0x1f, 'laneChange'],
  [0x23, 'fatigueDriving'],
  [0x25, 'overspeed'],
  [0x26, 'accident'],
  [0x27, 'accident'],
  [0x28, 'accident'],
  [0x31, 'door'],
  [0x32, 'door'],
]);
const F0_EVENTS: ReadonlyMap<number, string> = new Map([
  [51, 'hardAcceleration'],
  [52, 'hardBraking'],
  [53, 'hardCornering'],
  [54, 'laneChange'],
  [56, 'accident'],
]);

function obdBox(body: Buffer, deviceId: string, o: Options): DecodeResult {
  const time = bcdDateTime(body, 1, 'ymd', JT808_TIME_OFFSET_MINUTES);
  const attributes: Attributes = {};
  const alarms = new Alarms();
  if (body.readUInt8(7) > 0) attributes.archive = true;
  const subtype = body.readUInt8(9);
  let at = 10;
  if (subtype === 0x01) {
    const count = body.readUInt8(at++);
    for (let i = 0; i < count; i++) {
      const id = body.readUInt16BE(at);
      const length = body.readUInt8(at + 2);
      const v = body.subarray(at + 3, at + 3 + length);
      if (v.length < length) throw new RangeError(`data stream item 0x${id.toString(16)} past the end`);
      at += 3 + length;
      const known = STREAM.get(id);
      if (known) attributes[known[0]] = known[1](v);
      else if (length === 1 || length === 2 || length === 4) attributes[`io${id}`] = v.readUIntBE(0, length);
    }
  } else if (subtype === 0x02) {
    const codes: string[] = [];
    const systems = body.readUInt16BE(at);
    at += 2;
    for (let i = 0; i < systems; i++) {
      const count = body.readUInt16BE(at + 4);
      at += 6;
      for (let j = 0; j < count; j++) {
        const length = body.readUInt16BE(at + 8);
        codes.push(
          body
            .toString('latin1', at + 10, at + 10 + length)
            .replace(/\0/g, '')
            .trim(),
        );
        at += 10 + length;
      }
    }
    attributes.dtcs = codes.join(' ');
  } else if (subtype === 0x03) {
    const count = body.readUInt8(at++);
    for (let i = 0; i < count; i++) {
      alarms.add(F0_ALARMS.get(body.readUInt8(at)));
      at += 2 + body.readUInt8(at + 1);
    }
  } else if (subtype === 0x04) {
    const property = body.readUInt8(at);
    attributes.tripNumber = body.readUInt32BE(at + 1);
    if (property === 0x02) {
      const t = at + 5 + 6 + 6 + 8 + 8 + 1;
      Object.assign(attributes, {
        idlingCount: body.readUInt16BE(t),
        idlingTime: body.readUInt16BE(t + 2),
        tripOdometer: body.readUInt16BE(t + 4) * 100,
        tripFuel: body.readUInt16BE(t + 6) / 100,
      });
    }
    return stateResult(attributes, alarms, { ...o, deviceTime: time });
  } else if (subtype === 0x0b) {
    if (body.readUInt8(at) > 0) attributes.vin = body.toString('latin1', at + 1, at + 18);
    return stateResult(attributes, alarms, { ...o, deviceTime: time });
  } else if (subtype === 0x15) {
    const event = body.readInt32BE(at);
    const alarm = F0_EVENTS.get(event);
    if (alarm) alarms.add(alarm);
    else attributes.event = event;
    return stateResult(attributes, alarms, { ...o, deviceTime: time });
  } else {
    attributes.data = body.toString('hex');
    return stateResult(attributes, alarms, { ...o, deviceTime: time });
  }
  const c = coordinates(body, at);
  return located(
    time ? { fixTime: time, valid: c.valid, latitude: c.latitude, longitude: c.longitude, speed: 0, course: 0 } : null,
    attributes,
    alarms,
    deviceId,
    o,
    time,
  );
}

/** 0x53/0x54: a location block (status, latitude, longitude, altitude, speed, course, time), then tags or samples. */
function sensors(body: Buffer, deviceId: string, o: Options): DecodeResult {
  const c = coordinates(body, 1);
  const altitude = body.readInt16BE(13);
  const speed = (body.readUInt16BE(15) / 10) * KNOTS_PER_KMH;
  const course = body.readUInt16BE(17);
  const time = bcdDateTime(body, 19, 'ymd', JT808_TIME_OFFSET_MINUTES);
  const attributes: Attributes = {};
  let at = 25;
  if (body[0] === 0x53) {
    at++; // nodes in every sub-package
    while (at + 9 <= body.length) {
      const index = body.readUInt8(at) + 1;
      attributes[`tag${index}Mac`] = body.toString('hex', at + 1, at + 7);
      attributes[`tag${index}Rssi`] = body.readInt8(at + 7);
      const length = body.readUInt8(at + 8);
      attributes[`tag${index}Data`] = body.toString('hex', at + 9, at + 9 + length);
      at += 9 + length;
    }
  } else {
    while (at + 8 <= body.length) {
      const mask = body.readUInt16BE(at);
      at += 8; // mask, sample time
      if (mask & 0x01) {
        attributes.lightSensor = body.readUInt16BE(at);
        at += 2;
      }
      if (mask & 0x02) {
        attributes.deviceTemp = body.readInt16BE(at) / 10;
        attributes.humidity = body.readInt16BE(at + 2) / 10;
        at += 4;
      }
      if (mask & 0x04) {
        attributes.temp3 = body.readInt16BE(at) / 10;
        at += 2;
      }
      if (mask & 0x08) at += 6; // acceleration
      if (mask & 0x10) {
        attributes.airPressure = body.readUInt16BE(at);
        at += 2;
      }
    }
  }
  attributes.ignition = c.ignition;
  return located(
    time ? { fixTime: time, valid: c.valid, latitude: c.latitude, longitude: c.longitude, speed, course, altitude } : null,
    attributes,
    new Alarms(),
    deviceId,
    o,
    time,
  );
}

export function decodeJt808Transparent(body: Buffer, deviceId: string, o: Options): DecodeResult {
  const type = body.readUInt8(0);
  const label = { ...o, type: `${o.type}/0x${type.toString(16).padStart(2, '0')}` };
  switch (type) {
    case 0x40: {
      const data = text(body, 1);
      if (data.startsWith('GTSL')) {
        const driver = data.split('|')[4];
        return stateResult(driver ? { driverUniqueId: driver } : { data }, new Alarms(), label);
      }
      return stateResult({ data }, new Alarms(), label);
    }
    case 0x41: {
      const values = text(body, 1).split(',');
      const attributes: Attributes = {};
      OBD_RT.forEach((key, i) => {
        const v = values[i + 1];
        if (key && v && /^-?\d+(\.\d+)?$/.test(v)) attributes[key] = Number(v);
      });
      return stateResult(attributes, new Alarms(), label);
    }
    case 0xf0:
      return obdBox(body, deviceId, label);
    case 0xff: {
      const time = bcdDateTime(body, 1, 'ymd', JT808_TIME_OFFSET_MINUTES);
      const fix = time
        ? {
            fixTime: time,
            valid: true,
            latitude: body.readInt32BE(7) / 1e6,
            longitude: body.readInt32BE(11) / 1e6,
            altitude: body.readInt16BE(15),
            speed: (body.readUInt16BE(17) / 10) * KNOTS_PER_KMH,
            course: body.readUInt16BE(19),
          }
        : null;
      return located(fix, {}, new Alarms(), deviceId, label, time);
    }
    case 0xf3: {
      const attributes: Attributes = {};
      let deviceTime: Date | null = null;
      for (let at = 1; at + 4 <= body.length;) {
        const subtype = body.readUInt16BE(at);
        const length = body.readUInt16BE(at + 2);
        if (subtype === 0x0002 && length >= 2) attributes.collision = body.readUInt16BE(at + 4) / 256 / 100;
        if (subtype === 0x0006 && length >= 6) deviceTime = bcdDateTime(body, at + 4, 'ymd', JT808_TIME_OFFSET_MINUTES);
        at += 4 + length;
      }
      return stateResult(attributes, new Alarms(), { ...label, deviceTime });
    }
    case 0x53:
    case 0x54:
      return sensors(body, deviceId, label);
    default:
      return stateResult({ data: body.toString('hex') }, new Alarms(), label);
  }
}
