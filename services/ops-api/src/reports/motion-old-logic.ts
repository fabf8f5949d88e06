import type { MotionFix } from './fixes';
import type { MotionDetector, MotionEvent } from './motion';
import type { TripThresholds } from './settings';

type OldLogicThresholds = Pick<
  TripThresholds,
  'minimalTripDistance' | 'minimalTripDuration' | 'minimalParkingDuration' | 'minimalNoDataDuration' | 'useIgnition'
>;

/** What the older model carries from one fix to the next (to keep it between batches: device-state motion-state.ts). */
export interface OldMotionSaved<F> {
  streak: boolean;
  state: boolean;
  streakStart: F | undefined;
  streakMax: number;
  last: F | undefined;
}

/**
 * Traccar's older motion model (report.trip.newLogic = false, MotionProcessor): a two-state machine
 * on each fix's motion flag. A flip needs an unbroken streak of the new flag: in motion for
 * minimalTripDuration or over minimalTripDistance (path length) starts a trip; out of motion for
 * minimalParkingDuration (or ignition off, with useIgnition) ends it; any flicker resets the streak.
 * Events are dated to the streak's first fix. A gap of minimalNoDataDuration while moving stops the
 * trip at the last fix before the gap (and the fix after the gap starts afresh).
 */
export function oldMotionDetector<F extends MotionFix>(
  t: OldLogicThresholds,
  first: F,
  saved?: OldMotionSaved<F>,
): MotionDetector<F> & { save(): OldMotionSaved<F> } {
  let streak = saved ? saved.streak : first.moving; // the confirmed state (Traccar's motionStreak)
  let state = saved ? saved.state : first.moving; // the last fix's flag (motionState)
  let streakStart: F | undefined = saved?.streakStart; // first fix of an unconfirmed flip
  let streakMax = saved?.streakMax ?? 0;
  let last: F | undefined = saved?.last;

  return {
    save: () => ({ streak, state, streakStart, streakMax, last }),
    update(fix) {
      const events: MotionEvent<F>[] = [];
      const previous = last;
      last = fix;
      if (previous && fix.time - previous.time >= t.minimalNoDataDuration && streak) {
        streak = false;
        state = false;
        streakStart = undefined;
        // the stop begins at the last fix before the gap: its speed is the stop's first (issue 26: a stop's top speed holds its legs)
        events.push({ type: 'stopped', fix: previous, maxSpeed: previous.speed });
        return events;
      }
      const now = fix.moving;
      if (now !== state) {
        state = now;
        streakStart = streak === now ? undefined : fix;
        streakMax = fix.speed;
        return events;
      }
      if (!streakStart) return events;
      streakMax = Math.max(streakMax, fix.speed);
      const elapsed = fix.time - streakStart.time;
      const confirmed = now
        ? elapsed >= t.minimalTripDuration || fix.path - streakStart.path >= t.minimalTripDistance
        : elapsed >= t.minimalParkingDuration || (t.useIgnition && fix.ignition === false);
      if (confirmed) {
        events.push({ type: now ? 'moving' : 'stopped', fix: streakStart, maxSpeed: streakMax });
        streak = now;
        streakStart = undefined;
      }
      return events;
    },
  };
}
