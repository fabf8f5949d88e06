/**
 * The @Track models and report layouts this decoder reads (facts from Queclink's GV300, GV55 and
 * GL300 @Track air interface protocols, cross-checked with Traccar's Gl200TextProtocolDecoder and
 * its public test messages). A model is told by the first two hex digits of the protocol version
 * (`060100` GV300, `1A0401` GL300); other models, whose layouts differ, are refused with the reason.
 */
export type Family = 'GV300' | 'GV55' | 'GL300';

export const QUECLINK_FAMILIES: Readonly<Record<string, Family>> = {
  '06': 'GV300',
  '25': 'GV300',
  '27': 'GV300', // GV300W
  '0F': 'GV55',
  '2F': 'GV55',
  '10': 'GV55', // GV55 Lite
  '50': 'GV55', // GV55W
  '1A': 'GL300',
  '30': 'GL300',
  '2C': 'GL300', // GL300W
  '28': 'GL300', // GL300VC
};

export function familyOf(protocolVersion: string): Family | undefined {
  return protocolVersion.length === 6 ? QUECLINK_FAMILIES[protocolVersion.slice(0, 2).toUpperCase()] : undefined;
}

/**
 * How a report type is laid out after `+RESP:GTxxx,<version>,<imei>,<device name>`:
 * - `blocks`: two fields (GV: external power mV and report id/type; GL300: report id and type), the
 *   number of positions N, then N location blocks, then the tail;
 * - `single`: `head` fields, one location block, then the tail;
 * - `none`: no location.
 * Tails: `fri` (GV300/GV55: mileage, hour meter, analog 1 and 2, battery %, device status; GL300:
 * battery %), `event` (GV: mileage; GL300: battery %), `ign` (hour meter, mileage), `none`.
 */
export interface Layout {
  location: 'blocks' | 'single' | 'none';
  head: number;
  tail: 'fri' | 'event' | 'ign' | 'none';
  /** Traccar alarm, or one chosen from the report type (the second head field) */
  alarm?: string | ((reportType: number) => string | null);
  ignition?: boolean;
}

/** Harsh behaviour (GTHBM) report type, low digit: 0/3 braking, 1/4 acceleration, 2 cornering. */
function harsh(reportType: number): string | null {
  return [['hardBraking'], ['hardAcceleration'], ['hardCornering'], ['hardBraking'], ['hardAcceleration']][reportType % 0x10]?.[0] ?? null;
}

export const QUECLINK_REPORTS: Readonly<Record<string, Layout>> = {
  FRI: { location: 'blocks', head: 2, tail: 'fri' }, // fixed report
  GEO: { location: 'blocks', head: 2, tail: 'event' }, // geofence report
  RTL: { location: 'blocks', head: 2, tail: 'event' }, // location on request
  DOG: { location: 'blocks', head: 2, tail: 'event' }, // protocol watchdog reboot
  DIS: { location: 'blocks', head: 2, tail: 'event' }, // digital input state
  IGL: { location: 'blocks', head: 2, tail: 'event' }, // location at ignition change
  SOS: { location: 'blocks', head: 2, tail: 'event', alarm: 'sos' },
  SPD: { location: 'blocks', head: 2, tail: 'event', alarm: 'overspeed' },
  TOW: { location: 'blocks', head: 2, tail: 'event', alarm: 'tow' },
  HBM: { location: 'blocks', head: 2, tail: 'event', alarm: harsh },
  IGN: { location: 'single', head: 1, tail: 'ign', ignition: true }, // ignition on (head: duration off, s)
  IGF: { location: 'single', head: 1, tail: 'ign', ignition: false }, // ignition off (head: duration on, s)
  MPN: { location: 'single', head: 0, tail: 'none', alarm: 'powerRestored' }, // main power connected
  MPF: { location: 'single', head: 0, tail: 'none', alarm: 'powerCut' }, // main power disconnected
  EPN: { location: 'single', head: 0, tail: 'none', alarm: 'powerRestored' },
  EPF: { location: 'single', head: 0, tail: 'none', alarm: 'powerCut' },
  BPL: { location: 'single', head: 1, tail: 'none', alarm: 'lowBattery' }, // backup battery low (head: volts)
  STT: { location: 'single', head: 1, tail: 'none' }, // motion state change (head: state)
  PNA: { location: 'none', head: 0, tail: 'none', alarm: 'powerOn' },
  PFA: { location: 'none', head: 0, tail: 'none', alarm: 'powerOff' },
};

/** GTINF / GTSTT motion state → ignition and motion (Queclink's state codes). */
export const MOTION_STATES: Readonly<Record<number, { ignition?: boolean; motion: boolean }>> = {
  0x11: { ignition: false, motion: false },
  0x12: { ignition: false, motion: true },
  0x16: { ignition: false, motion: true },
  0x1a: { ignition: false, motion: true },
  0x21: { ignition: true, motion: false },
  0x22: { ignition: true, motion: true },
  0x41: { motion: false },
  0x42: { motion: true },
};
