/**
 * Teltonika IO element table: id → attribute key → reader. Facts from Teltonika's FMB "Data Sending
 * Parameters ID" pages and Traccar's TeltonikaProtocolDecoder parameter table. Ids not listed here
 * decode to `io<ID>` with the raw unsigned value (hex for variable-length values).
 *
 * `field` moves the value into the normalized position (ignition, odometer, power, battery, hdop);
 * `alarm` turns a value into a Traccar alarm name.
 */
export type IoValue = string | number | boolean | null;

type IoField = 'ignition' | 'odometer' | 'power' | 'battery' | 'hdop';

export interface IoElementSpec {
  key: string;
  read: (raw: Buffer) => IoValue;
  field?: IoField;
  alarm?: (value: IoValue) => string | null;
  /** The id means this only in the codec 8E variable-length group (ids are reused by codec 16 devices). */
  variableOnly?: boolean;
}

/** Unsigned big-endian value of 1..8 bytes; 8-byte values past 2^53 become hex strings. */
function readUnsigned(raw: Buffer): number | string {
  if (raw.length === 0) return 0;
  if (raw.length <= 6) return raw.readUIntBE(0, raw.length);
  if (raw.length === 8) {
    const big = raw.readBigUInt64BE(0);
    return big <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(big) : raw.toString('hex');
  }
  return raw.toString('hex');
}

function readSigned(raw: Buffer): number | string {
  if (raw.length === 0) return 0;
  if (raw.length <= 6) return raw.readIntBE(0, raw.length);
  if (raw.length === 8) {
    const big = raw.readBigInt64BE(0);
    const safe = BigInt(Number.MAX_SAFE_INTEGER);
    return big <= safe && big >= -safe ? Number(big) : raw.toString('hex');
  }
  return raw.toString('hex');
}

const unsigned = (raw: Buffer): IoValue => readUnsigned(raw);
const signed = (raw: Buffer): IoValue => readSigned(raw);
const flag = (raw: Buffer): IoValue => {
  const v = readUnsigned(raw);
  return typeof v === 'number' ? v > 0 : true;
};
const scaled =
  (factor: number, isSigned = false) =>
  (raw: Buffer): IoValue => {
    const v = isSigned ? readSigned(raw) : readUnsigned(raw);
    return typeof v === 'number' ? Math.round(v * factor * 1e6) / 1e6 : null;
  };
/** ASCII text when printable (VIN), otherwise the unsigned value. */
const text = (raw: Buffer): IoValue =>
  raw.length > 1 && raw.every((b) => b >= 0x20 && b < 0x7f) ? raw.toString('latin1') : readUnsigned(raw);
const decimalString = (raw: Buffer): IoValue => String(readUnsigned(raw));
/** iButton / RFID id: Traccar prints the 8 bytes little-endian as 16 hex digits. */
const driverId = (raw: Buffer): IoValue => {
  if (raw.every((b) => b === 0)) return null;
  return Buffer.from(raw).reverse().toString('hex').toUpperCase().padStart(16, '0');
};

const whenTrue = (name: string) => (v: IoValue) => (v === true || (typeof v === 'number' && v > 0) ? name : null);
const greenDriving = (v: IoValue) => (v === 1 ? 'hardAcceleration' : v === 2 ? 'hardBraking' : v === 3 ? 'hardCornering' : null);
/** DTC list: Traccar keeps the codes space-separated. */
const dtcs = (raw: Buffer): IoValue => raw.toString('latin1').replace(/,/g, ' ');

const entries: [number, IoElementSpec][] = [
  [1, { key: 'in1', read: flag }],
  [2, { key: 'in2', read: flag }],
  [3, { key: 'in3', read: flag }],
  [4, { key: 'in4', read: flag }],
  [9, { key: 'adc1', read: scaled(0.001) }], // analog input 1, mV → V
  [10, { key: 'adc2', read: scaled(0.001) }],
  [11, { key: 'iccid', read: decimalString }],
  [12, { key: 'fuelUsed', read: scaled(0.001) }], // l
  [13, { key: 'fuelConsumption', read: scaled(0.01) }], // l/100 km
  [16, { key: 'odometer', read: unsigned, field: 'odometer' }], // total odometer, m
  [17, { key: 'axisX', read: signed }], // mG
  [18, { key: 'axisY', read: signed }],
  [19, { key: 'axisZ', read: signed }],
  [21, { key: 'rssi', read: unsigned }], // GSM signal 0..5
  [24, { key: 'gnssSpeed', read: unsigned }], // km/h
  [25, { key: 'bleTemp1', read: scaled(0.01, true) }], // °C
  [26, { key: 'bleTemp2', read: scaled(0.01, true) }],
  [27, { key: 'bleTemp3', read: scaled(0.01, true) }],
  [28, { key: 'bleTemp4', read: scaled(0.01, true) }],
  [30, { key: 'faultCount', read: unsigned }],
  [32, { key: 'coolantTemp', read: signed }], // °C
  [66, { key: 'power', read: scaled(0.001), field: 'power' }], // external voltage, mV → V
  [67, { key: 'battery', read: scaled(0.001), field: 'battery' }], // battery voltage, mV → V
  [68, { key: 'batteryCurrent', read: scaled(0.001) }], // mA → A
  [69, { key: 'gnssStatus', read: unsigned }], // 0 off, 1 on with fix, 2 on without fix, 3 sleep
  [72, { key: 'temp1', read: scaled(0.1, true) }], // Dallas temperature, 0.1 °C
  [73, { key: 'temp2', read: scaled(0.1, true) }],
  [74, { key: 'temp3', read: scaled(0.1, true) }],
  [75, { key: 'temp4', read: scaled(0.1, true) }],
  [78, { key: 'driverUniqueId', read: driverId }],
  [80, { key: 'dataMode', read: unsigned }],
  [81, { key: 'obdSpeed', read: unsigned }], // km/h
  [82, { key: 'throttle', read: unsigned }], // %
  [83, { key: 'fuelUsed', read: scaled(0.1) }], // l
  [84, { key: 'fuel', read: scaled(0.1) }], // l
  [85, { key: 'rpm', read: unsigned }],
  [87, { key: 'obdOdometer', read: unsigned }], // m
  [89, { key: 'fuelLevelPercentage', read: unsigned }], // %
  [110, { key: 'fuelConsumption', read: scaled(0.1) }], // l/h
  [113, { key: 'batteryLevel', read: unsigned }], // %
  [115, { key: 'engineTemp', read: scaled(0.1, true) }], // °C
  [179, { key: 'out1', read: flag }],
  [180, { key: 'out2', read: flag }],
  [181, { key: 'pdop', read: scaled(0.1) }],
  [182, { key: 'hdop', read: scaled(0.1), field: 'hdop' }],
  [199, { key: 'tripOdometer', read: unsigned }], // m
  [200, { key: 'sleepMode', read: unsigned }],
  [205, { key: 'cid2g', read: unsigned }],
  [206, { key: 'lac', read: unsigned }],
  [232, { key: 'cngStatus', read: flag }],
  [233, { key: 'cngUsed', read: scaled(0.1) }],
  [234, { key: 'cngLevel', read: unsigned }],
  [235, { key: 'oilLevel', read: unsigned }],
  [236, { key: 'alarmInput', read: flag, alarm: whenTrue('general') }],
  [239, { key: 'ignition', read: flag, field: 'ignition' }],
  [240, { key: 'motion', read: flag }],
  [241, { key: 'operator', read: unsigned }],
  [246, { key: 'towing', read: flag, alarm: whenTrue('tow') }],
  [247, { key: 'crash', read: unsigned, alarm: whenTrue('accident') }],
  [249, { key: 'gsmJamming', read: unsigned, alarm: whenTrue('jamming') }],
  [251, { key: 'idling', read: flag, alarm: whenTrue('idle') }],
  [252, { key: 'unplug', read: flag, alarm: whenTrue('powerCut') }],
  [253, { key: 'greenDriving', read: unsigned, alarm: greenDriving }],
  [255, { key: 'overspeeding', read: unsigned, alarm: whenTrue('overspeed') }], // value: speed at the event, km/h
  [256, { key: 'vin', read: text, variableOnly: true }], // codec 8E variable-length element
  [281, { key: 'dtcs', read: dtcs, variableOnly: true }],
  [318, { key: 'gnssJamming', read: unsigned, alarm: whenTrue('jamming') }], // 0 none, 1 warning, 2 critical
  [636, { key: 'cid4g', read: unsigned }],
  [662, { key: 'door', read: flag }],
];

export const TELTONIKA_IO: ReadonlyMap<number, IoElementSpec> = new Map(entries);

/** Table entry for an id read from a fixed-size group or the variable-length group. */
export function ioSpecFor(id: number, variableLength: boolean): IoElementSpec {
  const spec = TELTONIKA_IO.get(id);
  if (spec && (variableLength || !spec.variableOnly)) return spec;
  return { key: `io${id}`, read: variableLength ? (raw) => raw.toString('hex') : unsigned };
}
