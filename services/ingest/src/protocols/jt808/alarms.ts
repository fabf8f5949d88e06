/**
 * JT/T 808 alarm flag bits (table 24 of JT/T 808-2013/2019) that have a Traccar alarm name, in the
 * order Traccar's HuabaoProtocolDecoder gives them precedence (first match wins). Bits without a
 * Traccar name (camera fault, IC card fault, route deviation, ...) are kept only in the raw
 * `alarmFlags` attribute.
 */
export const JT808_ALARM_BITS: readonly (readonly [bit: number, alarm: string])[] = [
  [0, 'sos'], // emergency alarm
  [1, 'overspeed'],
  [5, 'gpsAntennaCut'], // GNSS antenna cut
  [4, 'fault'], // GNSS module fault
  [9, 'fault'], // LCD fault
  [10, 'fault'], // TTS fault
  [11, 'fault'], // camera fault
  [7, 'lowBattery'], // main power under-voltage
  [8, 'powerOff'], // main power off
  [17, 'tampering'], // vendor use (Traccar: tampering)
  [20, 'geofence'], // in/out of an area
  [28, 'movement'], // illegal displacement
  [29, 'accident'], // collision / rollover
  [2, 'fatigueDriving'],
  [31, 'door'], // illegal door opening (2013)
];
