/**
 * TK103 alarms by message (facts from the TK103 protocol document and Traccar's
 * Tk103ProtocolDecoder), as Traccar alarm names.
 */

/** BO01 alarm digit (TK103 document: 0 power off, 1 accident, 2 SOS/robbery, 3 anti-theft, 4 low speed, 5 overspeed, 6 out of geofence). */
const BO01: Record<string, string> = {
  '0': 'powerCut',
  '1': 'accident',
  '2': 'sos',
  '3': 'vibration',
  '4': 'lowspeed',
  '5': 'overspeed',
  '6': 'geofenceExit',
};

/** BQ81 `,ALARM,<type>,` codes. */
const BQ81: Record<string, string> = {
  '0': 'lowBattery',
  '1': 'overspeed',
  '2': 'idle',
  '3': 'hardAcceleration',
  '4': 'hardBraking',
  '5': 'temperature',
};

/** ZC (GPS), DW3x (GPS) and DW5x (LBS + Wi-Fi) report types of the same event. */
const EVENTS: Record<string, string> = {
  ZC11: 'movement',
  DW31: 'movement',
  DW51: 'movement',
  ZC12: 'lowBattery',
  DW32: 'lowBattery',
  DW52: 'lowBattery',
  ZC13: 'powerCut',
  DW33: 'powerCut',
  DW53: 'powerCut',
  ZC17: 'removing',
  DW37: 'removing',
  DW57: 'removing',
  ZC25: 'sos',
  DW3E: 'sos',
  DW5E: 'sos',
  ZC26: 'tampering',
  DW3F: 'tampering',
  DW5F: 'tampering',
  ZC27: 'lowPower',
  DW40: 'lowPower',
  DW60: 'lowPower',
};
const IGNITION_ON = new Set(['ZC15', 'DW35', 'DW55', 'ZC29', 'DW42', 'DW62']);
const IGNITION_OFF = new Set(['ZC16', 'DW36', 'DW56']);

/** The alarm a message carries: by its command, or by the data before the date (BO01 digit, BQ81 `,ALARM,<code>,`). */
export function alarmOf(command: string, data: string): string | null {
  if (command === 'BO01') return BO01[data.charAt(0)] ?? null;
  if (command === 'BQ81') return BQ81[/ALARM,(\d),/.exec(data)?.[1] ?? ''] ?? null;
  return EVENTS[command] ?? null;
}

/** Ignition from the command alone (ACC on/off report types), else null. */
export function ignitionOf(command: string): boolean | null {
  if (IGNITION_ON.has(command)) return true;
  if (IGNITION_OFF.has(command)) return false;
  return null;
}
