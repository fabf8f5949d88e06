import type { Attributes } from '../result';

/**
 * The keyword (second field) of a GPS103 report: an alarm under Traccar's name, ignition for
 * `acc on`/`acc off`, a temperature (`T:+28.0`) or fuel (`oil 51.67`) reading, or else the
 * `event` attribute (`tracker` is the plain periodic report). Facts from the Coban GPRS protocol
 * notes and Traccar's Gps103ProtocolDecoder.
 */
const ALARMS: Record<string, string> = {
  'help me': 'sos',
  'low battery': 'lowBattery',
  stockade: 'geofence',
  move: 'movement',
  speed: 'overspeed',
  'door alarm': 'door',
  'ac alarm': 'powerCut',
  'accident alarm': 'accident',
  'sensor alarm': 'vibration',
  'bonnet alarm': 'bonnet',
  'footbrake alarm': 'footBrake',
  DTC: 'fault',
};

export function keywordAlarm(keyword: string): string | null {
  if (keyword.startsWith('T:')) return 'temperature';
  if (keyword.startsWith('oil')) return 'fuelLeak';
  return ALARMS[keyword] ?? null;
}

function numberOrNull(text: string): number | null {
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) ? n : null;
}

/** Attributes a keyword sets by itself (before the report's own fields). */
export function keywordAttributes(keyword: string): Attributes {
  if (keyword === 'acc on') return { ignition: true };
  if (keyword === 'acc off') return { ignition: false };
  if (keyword.startsWith('T:')) return { temp1: numberOrNull(keyword.slice(2)) };
  if (keyword.startsWith('oil ')) return { fuel: numberOrNull(keyword.slice(4)) };
  // vt<n> announces n photo packets (no event, as Traccar)
  if (keyword === 'tracker' || keyword.startsWith('oil') || /^vt\d+$/.test(keyword) || keywordAlarm(keyword)) return {};
  return { event: keyword };
}
