import type { PositionMessage } from '@corridor/contracts';
import { fixTrack, type MotionFix } from '../reports/fixes';
import type { MotionEvent } from '../reports/motion';
import { newMotionDetector } from '../reports/motion-new-logic';
import { oldMotionDetector } from '../reports/motion-old-logic';
import type { TripThresholds } from '../reports/settings';

/** A fix as the motion state keeps it: what the detectors read of it (time ms, id, place, knots, path metres, flags). */
type Kept = [
  time: number,
  id: number,
  latitude: number,
  longitude: number,
  speed: number,
  path: number,
  moving: 0 | 1,
  ignition: -1 | 0 | 1,
];

/**
 * One device's motion state between positions: the report's detector (Traccar's newer or older
 * model, as the device's thresholds say) with what it carries, and the previous fix (for the leg
 * and path of the next). JSON, kept with the device's event state.
 */
export type MotionState =
  | { logic: 'new'; prev: Kept; moving: boolean; anchor: Kept; window: Kept[] }
  | { logic: 'old'; prev: Kept; streak: boolean; state: boolean; streakStart: Kept | null; streakMax: number };

const keep = (f: MotionFix): Kept => [
  f.time,
  f.id,
  f.latitude,
  f.longitude,
  f.speed,
  f.path,
  f.moving ? 1 : 0,
  f.ignition === null ? -1 : f.ignition ? 1 : 0,
];
const restore = (k: Kept, deviceId: number): MotionFix => ({
  deviceId,
  id: k[1],
  time: k[0],
  latitude: k[2],
  longitude: k[3],
  speed: k[4],
  ignition: k[7] < 0 ? null : k[7] === 1,
  motion: null,
  path: k[5],
  gap: 0,
  leg: 0,
  ignitionMs: 0,
  ignitionFixes: 0,
  moving: k[6] === 1,
});

/** The position as a report's track row. */
const rowOf = (p: PositionMessage): MotionFix => ({
  deviceId: p.deviceId,
  id: p.id,
  time: Date.parse(p.fixTime),
  latitude: p.latitude,
  longitude: p.longitude,
  speed: p.speed,
  ignition: p.ignition ?? null,
  motion: typeof p.attributes.motion === 'boolean' ? p.attributes.motion : null,
  path: 0,
  gap: 0,
  leg: 0,
  ignitionMs: 0,
  ignitionFixes: 0,
  moving: false,
});

/**
 * The one motion state behind deviceMoving / deviceStopped and the trips and stops reports: the
 * position goes through the same fix totals (fixTrack) and the same detector (reports/intervals.ts
 * motionDetector: Traccar's newer model by default, the older with report.trip.newLogic false) with
 * the same thresholds (the device's report.trip.* attributes over the service's), so a trip starts
 * at its deviceMoving and a stop at its deviceStopped. The first position (or the first after the
 * device changed model) sets the state, as a report's first fix does. Events may be dated to earlier
 * positions (a trip back-dated to where the truck pulled away).
 */
export function motionStep(
  saved: MotionState | undefined,
  p: PositionMessage,
  t: TripThresholds,
): { state: MotionState; events: MotionEvent<MotionFix>[] } {
  const logic = t.newLogic ? 'new' : 'old';
  const usable = saved?.logic === logic ? saved : undefined;
  const fix = fixTrack<MotionFix>(t.speedThreshold, t.maxSpeed, usable ? restore(usable.prev, p.deviceId) : undefined)(rowOf(p));
  const from = (k: Kept): MotionFix => restore(k, p.deviceId);
  if (logic === 'new') {
    const s = usable?.logic === 'new' ? usable : undefined;
    const d = newMotionDetector(t, fix, s ? { moving: s.moving, anchor: from(s.anchor), window: s.window.map(from) } : undefined);
    const events = d.update(fix);
    const now = d.save();
    return { state: { logic, prev: keep(fix), moving: now.moving, anchor: keep(now.anchor), window: now.window.map(keep) }, events };
  }
  const s = usable?.logic === 'old' ? usable : undefined;
  const d = oldMotionDetector(
    t,
    fix,
    s
      ? {
          streak: s.streak,
          state: s.state,
          streakStart: s.streakStart ? from(s.streakStart) : undefined,
          streakMax: s.streakMax,
          last: from(s.prev),
        }
      : undefined,
  );
  const events = d.update(fix);
  const now = d.save();
  return {
    state: {
      logic,
      prev: keep(fix),
      streak: now.streak,
      state: now.state,
      streakStart: now.streakStart ? keep(now.streakStart) : null,
      streakMax: now.streakMax,
    },
    events,
  };
}
