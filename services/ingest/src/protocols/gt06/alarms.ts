/**
 * GT06 alarm tables, mapped to Traccar alarm names. Facts from the Concox GT06/GT06N/JM-VL01
 * protocol documents as Traccar's Gt06ProtocolDecoder (2024) reads them. Where Traccar picks a
 * meaning by the configured device model (LW4G, SEEWORLD, VL103 family) the table holds the
 * default meaning: a pure decoder does not know the model.
 */

/** Alarm/extension byte after the status block (0x13, 0x16, 0x19, 0x26, 0x27, 0xA4, 0xA5, ...). */
export const GT06_ALARM_BYTE: ReadonlyMap<number, string> = new Map([
  [0x01, 'sos'],
  [0x02, 'powerCut'],
  [0x03, 'vibration'],
  [0x04, 'geofenceEnter'],
  [0x05, 'geofenceExit'],
  [0x06, 'overspeed'],
  [0x09, 'vibration'],
  [0x0c, 'tampering'],
  [0x0e, 'lowBattery'],
  [0x0f, 'lowBattery'],
  [0x11, 'powerOff'],
  [0x13, 'tampering'],
  [0x14, 'door'],
  [0x18, 'removing'],
  [0x19, 'lowBattery'],
  [0x1a, 'hardBraking'],
  [0x1b, 'hardCornering'],
  [0x23, 'fallDown'],
  [0x25, 'tampering'],
  [0x26, 'hardAcceleration'],
  [0x27, 'hardBraking'],
  [0x28, 'hardBraking'],
  [0x29, 'hardAcceleration'],
  [0x2a, 'hardCornering'],
  [0x2b, 'hardCornering'],
  [0x2c, 'accident'],
  [0x2e, 'hardCornering'],
  [0x30, 'jamming'],
]);

/** Bits 3..5 of the terminal information byte (VXT01 devices report overspeed as 7). */
export const GT06_TERMINAL_ALARM: ReadonlyMap<number, string> = new Map([
  [1, 'vibration'],
  [2, 'powerCut'],
  [3, 'lowBattery'],
  [4, 'sos'],
  [6, 'geofence'],
  [7, 'removing'],
]);

/** Event byte of the 0x95 alarm packet (JC100 / JC400 dashcams). */
export const GT06_DASHCAM_EVENT: ReadonlyMap<number, string> = new Map([
  [0x0e, 'lowPower'],
  [0x76, 'temperature'],
  [0x80, 'vibration'],
  [0x87, 'overspeed'],
  [0x88, 'powerCut'],
  [0x90, 'hardAcceleration'],
  [0x91, 'hardBraking'],
  [0x92, 'hardCornering'],
  [0x93, 'accident'],
]);

/** Status byte of the AZ735 extended alarm packet (0x33). */
export const GT06_AZ735_STATUS: ReadonlyMap<number, string> = new Map([
  [0xa2, 'lowBattery'],
  [0xa3, 'lowBattery'],
  [0xa4, 'general'],
  [0xa5, 'door'],
]);

/** Event module (0x2B) of the modular 0x70 packet. */
export const GT06_MODULAR_EVENT: ReadonlyMap<number, string> = new Map([
  [0x11, 'lowBattery'],
  [0x12, 'lowPower'],
  [0x13, 'powerCut'],
  [0x14, 'removing'],
]);
