/**
 * GT06 alarm tables (facts from the Concox GT06 protocol document as implemented in Traccar's
 * Gt06ProtocolDecoder), mapped to Traccar alarm names.
 */

/** Alarm/language byte of the 0x16 / 0x26 / 0x27 / 0x13 packets. */
export const GT06_ALARM_BYTE: ReadonlyMap<number, string> = new Map([
  [0x01, 'sos'],
  [0x02, 'powerCut'],
  [0x03, 'vibration'],
  [0x04, 'geofenceEnter'],
  [0x05, 'geofenceExit'],
  [0x06, 'overspeed'],
  [0x09, 'vibration'],
  [0x0e, 'lowBattery'],
  [0x0f, 'lowBattery'],
  [0x11, 'powerOff'],
  [0x13, 'tampering'],
  [0x14, 'door'],
  [0x23, 'fallDown'],
  [0x29, 'acceleration'],
  [0x2a, 'cornering'],
  [0x2b, 'cornering'],
  [0x2c, 'accident'],
  [0x30, 'braking'],
]);

/** Bits 3..5 of the terminal information byte. */
export const GT06_TERMINAL_ALARM: ReadonlyMap<number, string> = new Map([
  [1, 'vibration'],
  [2, 'powerCut'],
  [3, 'lowBattery'],
  [4, 'sos'],
  [6, 'geofence'],
  [7, 'removing'],
]);
