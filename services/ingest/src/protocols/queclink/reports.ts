import type { Attributes } from '../result';
import { int, MOTION_STATES, num } from './fields';

/**
 * What each @Track report type adds to its locations (Queclink's @Track protocols; Traccar's
 * Gl200TextProtocolDecoder names the alarms). `head` is the list of fields between the device name
 * and the first location; a type not in the table is read like a fixed report (FRI), so a report
 * type this table does not know still gives its positions.
 */
export interface ReportType {
  /** Traccar alarm of the report, or one chosen from its head. */
  alarm?: string | ((head: readonly string[]) => string | null);
  /** Reads the head's fields; the default is the fixed report's. */
  head?: (head: readonly string[], attributes: Attributes) => void;
  /** The GV500 family's engine values after the device status (fixed-report family only). */
  engine?: boolean;
}

/** Report type (hex) in the second head field of the fixed-report family. */
function reportType(head: readonly string[]): number | null {
  const t = head[1];
  return t && /^[0-9A-Fa-f]{1,2}$/.test(t) ? parseInt(t, 16) : null;
}

/**
 * The fixed report's head: `<external power mV | report id>,<report id and type>,<number of
 * locations>` and on some models `,<reserved>,<battery %>`; a first field over 10 is the external
 * power in mV (as Traccar reads it: a report id is small).
 */
function fixedHead(head: readonly string[], attributes: Attributes): void {
  const power = int(head[0]);
  if (power !== null && power > 10) attributes.power = power / 1000;
  if (head.length === 5) {
    const battery = int(head[4]);
    if (battery !== null && battery >= 0 && battery <= 100) attributes.batteryLevel = battery;
  }
}

/** Harsh behaviour (GTHBM) report type, low digit: 0/3 braking, 1/4 acceleration, 2 cornering. */
function harsh(head: readonly string[]): string | null {
  const t = reportType(head);
  return t === null ? null : (['hardBraking', 'hardAcceleration', 'hardCornering', 'hardBraking', 'hardAcceleration'][t % 0x10] ?? null);
}

const ignitionHead = (on: boolean) => (_: readonly string[], a: Attributes) => void (a.ignition = on);

const withType = (read: (t: number, a: Attributes) => void) => (head: readonly string[], a: Attributes) => {
  fixedHead(head, a);
  const t = reportType(head);
  if (t !== null) read(t, a);
};

const fixed: ReportType = {};
const engineReport: ReportType = { engine: true };

export const REPORT_TYPES: Readonly<Record<string, ReportType>> = {
  FRI: engineReport, // fixed report
  GEO: fixed, // geofence
  RTL: fixed, // real-time location on request
  DOG: fixed, // watchdog reboot
  STR: fixed, // GL5xx: location on request
  CTN: fixed, // GL5xx: continuous location
  PDP: fixed, // GPRS connection established
  SOS: { alarm: 'sos' },
  SPD: { alarm: 'overspeed' },
  TOW: { alarm: 'tow' },
  IDL: { alarm: 'idle' },
  HBM: { alarm: harsh },
  SWG: { alarm: 'geofence' },
  TMP: { alarm: 'temperature' },
  TEM: { alarm: 'temperature' },
  JDR: { alarm: 'jamming' },
  JDS: { alarm: 'jamming' },
  EPN: { alarm: 'powerRestored', head: () => {} },
  MPN: { alarm: 'powerRestored', head: () => {} },
  EPF: { alarm: 'powerCut', head: () => {} },
  MPF: { alarm: 'powerCut', head: () => {} },
  NMR: { head: withType((t, a) => void (a.motion = t === 1)) }, // non-movement: 1 moving, 0 at rest
  DIS: { head: withType((t, a) => void (a[`in${t >> 4}`] = (t & 0x0f) === 1)) }, // digital input: input number, state
  IGL: { head: withType((t, a) => void (a.ignition = (t & 0x0f) === 1)) }, // location at ignition on/off
  IGN: { head: ignitionHead(true) },
  IGF: { head: ignitionHead(false) },
  VGN: { head: ignitionHead(true) }, // virtual ignition
  VGF: { head: ignitionHead(false) },
  BPL: {
    alarm: 'lowBattery',
    head: (h, a) => {
      const v = num(h[0]);
      if (v !== null) a.battery = v;
    },
  }, // backup battery low: volts
  STT: {
    head: (h, a) => {
      const s = h[0] && /^[0-9A-Fa-f]{2}$/.test(h[0]) ? MOTION_STATES[parseInt(h[0], 16)] : undefined;
      if (s) Object.assign(a, s);
    },
  },
  ERI: {
    head: (h, a) => {
      const v = int(h[1]);
      if (v !== null && v > 0) a.power = v / 1000;
    },
  }, // mask, power mV, report type, count
  IDA: { head: (h, a) => void (h[1] ? (a.driverUniqueId = h[1]) : undefined) }, // reserved, RFID, report type, count
  LSW: { head: (h, a) => void (a.in1 = h[1] === '1') }, // light sensor switch: type, state
  TSW: { head: (h, a) => void (a.in2 = h[1] === '1') }, // tamper switch
  DAR: {
    alarm: (h) => (h[0] === '1' ? 'fatigueDriving' : null),
    head: (h, a) => {
      const w = int(h[0]);
      if (w !== null && w !== 1) a.warningType = w;
      else if (w === 1 && int(h[1]) !== null) a.fatigueDegree = int(h[1]);
    },
  },
  DAT: { head: (h, a) => void (h[3] ? (a.data = h[3]) : undefined) }, // report type, reserved, reserved, data
  GCR: { head: () => {} }, // geofence created by command
  LBC: { head: () => {} }, // location by call: the phone number
  TRI: { head: () => {} },
  BAA: { head: (h, a) => accessory(h, a) }, // Bluetooth accessory alarm
  BID: { head: (h, a) => accessory(h, a) }, // Bluetooth accessory identification
};

/** A Bluetooth accessory's MAC (12 hex) and voltage (mV) when its report names them. */
function accessory(head: readonly string[], a: Attributes): void {
  const mac = head.find((f) => /^[0-9A-Fa-f]{12}$/.test(f));
  if (mac) a.accessoryMac = mac;
  const at = mac ? head.indexOf(mac) + 1 : -1;
  const mv = at > 0 ? int(head[at]) : null;
  if (mv !== null && mv > 100) a.accessoryVoltage = mv / 1000;
}

export function reportOf(type: string): ReportType {
  return REPORT_TYPES[type] ?? fixed;
}

export function alarmOf(type: ReportType, head: readonly string[]): string | null {
  return typeof type.alarm === 'function' ? type.alarm(head) : (type.alarm ?? null);
}

export function readHead(type: ReportType, head: readonly string[], attributes: Attributes): void {
  (type.head ?? fixedHead)(head, attributes);
}
