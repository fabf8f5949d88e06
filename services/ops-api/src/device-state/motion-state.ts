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
 * and path of the next). JSON, kept with the device's event state. The newer model's window (the
 * fixes of the last minDuration: 180 of them at a fix a second) is left out when the instance
 * holds the detector in memory (MotionMemory, motion-memory.ts), and read back from the stored
 * positions when it does not; a state with a window (kept before, or by a caller without memory)
 * still carries it.
 */
export type MotionState =
  NewMotionState | { logic: 'old'; prev: Kept; streak: boolean; state: boolean; streakStart: Kept | null; streakMax: number };
export interface NewMotionState {
  logic: 'new';
  prev: Kept;
  moving: boolean;
  anchor: Kept;
  window?: Kept[];
}

/** A device's newer-model detector, held between batches by the instance that processed its last position. */
export interface HeldMotion {
  detector: ReturnType<typeof newMotionDetector<MotionFix>>;
  prev: MotionFix;
  t: TripThresholds;
}

/** Where the instance holds its devices' detectors (motion-memory.ts). */
export interface MotionHolder {
  /** The held detector of the device, if it went on from this stored state (the same previous fix). */
  held(deviceId: number, s: NewMotionState): HeldMotion | undefined;
  hold(deviceId: number, h: HeldMotion): void;
}

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
export const restore = (k: Kept, deviceId: number): MotionFix => ({
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

/** The newer model's thresholds (what its window and events depend on) are the same. */
const sameWindowRule = (a: TripThresholds, b: TripThresholds): boolean =>
  a === b || (a.minDistance === b.minDistance && a.minDuration === b.minDuration && a.stopGap === b.stopGap);

/** The position as a report's track row. */
export const rowOf = (p: PositionMessage): MotionFix => ({
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
  memory?: MotionHolder,
): { state: MotionState; events: MotionEvent<MotionFix>[] } {
  const logic = t.newLogic ? 'new' : 'old';
  const usable = saved?.logic === logic ? saved : undefined;
  // restore(k, p.deviceId) written out, not a closure made per position (a named one costs its name under tsx, issue 28)
  if (logic === 'new') {
    const s = usable?.logic === 'new' ? usable : undefined;
    const held = s && memory ? memory.held(p.deviceId, s) : undefined;
    const fix = fixTrack<MotionFix>(t.speedThreshold, t.maxSpeed, held ? held.prev : s ? restore(s.prev, p.deviceId) : undefined)(rowOf(p));
    let d: HeldMotion['detector'];
    if (held && sameWindowRule(held.t, t)) d = held.detector;
    else if (held) d = newMotionDetector(t, fix, held.detector.save());
    // without a held detector nor a window (its recovery found nothing): the previous fix alone
    else
      d = newMotionDetector(
        t,
        fix,
        s
          ? { moving: s.moving, anchor: restore(s.anchor, p.deviceId), window: (s.window ?? [s.prev]).map((k) => restore(k, p.deviceId)) }
          : undefined,
      );
    const events = d.update(fix);
    if (memory) {
      memory.hold(p.deviceId, { detector: d, prev: fix, t });
      const now = d.now();
      return { state: { logic, prev: keep(fix), moving: now.moving, anchor: keep(now.anchor) }, events };
    }
    const now = d.save();
    return { state: { logic, prev: keep(fix), moving: now.moving, anchor: keep(now.anchor), window: now.window.map(keep) }, events };
  }
  const fix = fixTrack<MotionFix>(t.speedThreshold, t.maxSpeed, usable ? restore(usable.prev, p.deviceId) : undefined)(rowOf(p));
  const s = usable?.logic === 'old' ? usable : undefined;
  const d = oldMotionDetector(
    t,
    fix,
    s
      ? {
          streak: s.streak,
          state: s.state,
          streakStart: s.streakStart ? restore(s.streakStart, p.deviceId) : undefined,
          streakMax: s.streakMax,
          last: restore(s.prev, p.deviceId),
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
