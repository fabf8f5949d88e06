import type { DecodedPosition, DecodeResult } from '../protocols/protocol';
import type { IncomingState } from './intake';
import type { LastFix } from './track';

/**
 * A status, heartbeat or cell-only message as a position (Traccar's getLastLocation): at the last
 * located fix of the device (latitude, longitude, altitude, speed, course), stamped with the
 * message's own time, valid = false, the message's attributes, and its alarms joined in `alarm`.
 * A device with no located fix yet is placed at (0, 0), as Traccar does; the record is still kept
 * (valid = false and attributes.outdated say it carries no location). normalize marks it outdated.
 */
export function stateRecordAt(fix: LastFix | null, s: IncomingState['state']): DecodedPosition {
  const alarms = [
    ...new Set([...(typeof s.attributes.alarm === 'string' && s.attributes.alarm ? s.attributes.alarm.split(',') : []), ...s.alarms]),
  ];
  return {
    fixTime: s.time,
    valid: false,
    latitude: fix?.latitude ?? 0,
    longitude: fix?.longitude ?? 0,
    speed: fix?.speed ?? 0,
    course: fix?.course ?? 0,
    altitude: fix?.altitude ?? null,
    alarm: alarms.length ? alarms.join(',') : null,
    attributes: { ...s.attributes },
  };
}

/**
 * The device state a decoded frame reports without a fix, if any: its attributes and alarms
 * (Traccar's keys). A login, or a frame that has fixes, carries none (fixes carry their own).
 */
export function stateOf(result: DecodeResult): { attributes: DecodedPosition['attributes']; alarms: string[] } | undefined {
  if (result.positions.length || result.kind === 'login') return undefined;
  const attributes = result.attributes ?? {};
  const alarms = (result.events ?? []).map((e) => e.alarm);
  return Object.keys(attributes).length || alarms.length ? { attributes, alarms } : undefined;
}
