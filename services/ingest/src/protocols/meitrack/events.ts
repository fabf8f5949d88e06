/** Meitrack event code → Traccar alarm (the Meitrack event list as Traccar's decoder maps it). */
export const MEITRACK_EVENT_ALARMS: ReadonlyMap<number, string> = new Map([
  [1, 'sos'],
  [17, 'lowBattery'],
  [18, 'lowPower'],
  [19, 'overspeed'],
  [20, 'geofenceEnter'],
  [21, 'geofenceExit'],
  [22, 'powerRestored'],
  [23, 'powerCut'],
  [36, 'tow'],
  [44, 'jamming'],
  [78, 'accident'],
  [90, 'hardCornering'],
  [91, 'hardCornering'],
  [129, 'hardBraking'],
  [130, 'hardAcceleration'],
  [135, 'fatigueDriving'],
]);
