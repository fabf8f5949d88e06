import type { Alarms, Attributes } from '../result';

/**
 * The device status word of the JT701/JT709 seal reports (bit n = the document's BIT n+1; facts
 * from Jointech's JT701 protocol and its published parser, cross-checked with Traccar's
 * Jt600ProtocolDecoder), as one table. State bits become attributes; alarm bits, read only in alarm
 * data (bit 5, "needs confirmation"), become Traccar alarms, the seal-specific ones named in
 * `sealEvent`:
 * - unlocking alarm (bit 8) → `unlock` (sealEvent `unlocked`);
 * - steel rope cut (3), wrong password five times (9), unauthorised RFID card (10), back cover
 *   opened (12) → `tampering` (`ropeCut`, `wrongPassword`, `unauthorizedCard`, `coverOpened`);
 * - motor fault (14) → `fault` (`motorFault`); geofence enter/exit (1/2), vibration (4), low battery (11).
 */
const SEAL_STATUS = {
  lbs: 0,
  needsConfirmation: 5,
  ropeInserted: 6,
  locked: 7,
  coverClosed: 13,
} as const;

export const SEAL_ALARM_BITS: readonly (readonly [bit: number, alarm: string, sealEvent: string | null])[] = [
  [8, 'unlock', 'unlocked'],
  [3, 'tampering', 'ropeCut'],
  [9, 'tampering', 'wrongPassword'],
  [10, 'tampering', 'unauthorizedCard'],
  [12, 'tampering', 'coverOpened'],
  [14, 'fault', 'motorFault'],
  [1, 'geofenceEnter', null],
  [2, 'geofenceExit', null],
  [4, 'vibration', null],
  [11, 'lowBattery', null],
];

const bit = (word: number, n: number): boolean => ((word >> n) & 1) === 1;

/** Per-connection memory of the last lock state, to report lock and unlock as they happen. */
export interface SealSession {
  jt701Locked?: boolean;
}

/**
 * Reads the status word into `attributes` (`lock`, `ropeInserted`, `coverClosed`, `status`) and
 * `alarms` (with `sealEvent` naming the seal events). A change of the lock bit since the last report
 * on this connection is itself an event: `lock` (sealEvent `locked`) or `unlock` (`unlocked`).
 */
export function readSealStatus(status: number, attributes: Attributes, alarms: Alarms, session: SealSession): void {
  const locked = bit(status, SEAL_STATUS.locked);
  attributes.status = status;
  attributes.lock = locked;
  attributes.ropeInserted = bit(status, SEAL_STATUS.ropeInserted);
  attributes.coverClosed = bit(status, SEAL_STATUS.coverClosed);
  const sealEvents: string[] = [];
  if (bit(status, SEAL_STATUS.needsConfirmation)) {
    for (const [n, alarm, sealEvent] of SEAL_ALARM_BITS) {
      if (!bit(status, n)) continue;
      alarms.add(alarm);
      if (sealEvent) sealEvents.push(sealEvent);
    }
  }
  const before = session.jt701Locked;
  session.jt701Locked = locked;
  if (before === true && !locked && !sealEvents.includes('unlocked')) {
    alarms.add('unlock');
    sealEvents.push('unlocked');
  } else if (before === false && locked) {
    alarms.add('lock');
    sealEvents.push('locked');
  }
  if (sealEvents.length) attributes.sealEvent = sealEvents.join(',');
}
