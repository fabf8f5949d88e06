import type { MotionFix, ReportFix } from './fixes';
import type { MotionDetector } from './motion';
import { newMotionDetector } from './motion-new-logic';
import { oldMotionDetector } from './motion-old-logic';
import type { TripThresholds } from './settings';

/** A trip (deviceMoving → deviceStopped) or a stop (deviceStopped → deviceMoving) of one device. */
export interface Interval<F extends MotionFix = ReportFix> {
  start: F;
  end: F;
  /** Highest speed over the interval's fixes, knots. */
  maxSpeed: number;
}

export type IntervalKind = 'trips' | 'stops';

const motionDetector = <F extends MotionFix>(t: TripThresholds, first: F): MotionDetector<F> =>
  t.newLogic ? newMotionDetector(t, first) : oldMotionDetector(t, first);

/** What a fix that settles nothing returns (never written to). */
const none: never[] = [];

/**
 * Traccar's report pass over one device's fixes: the initial state is the first fix's motion; a
 * trip (or stop) opens at the event that starts it and closes at the next opposite event; one still
 * open at the end of the period closes at the last fix. Feed fixes oldest first, then call finish().
 */
export function intervalBuilder<F extends MotionFix = ReportFix>(kind: IntervalKind, thresholds: TripThresholds) {
  const wantMoving = kind === 'trips';
  let detector: MotionDetector<F> | undefined;
  let start: F | undefined;
  let maxSpeed = 0; // over start … the previous fix
  let last: F | undefined;

  return {
    push(fix: F): Interval<F>[] {
      let out: Interval<F>[] = none; // most fixes close nothing: no array for them
      if (!detector) {
        detector = motionDetector(thresholds, fix);
        if (fix.moving === wantMoving) {
          start = fix;
          maxSpeed = fix.speed;
        }
      }
      for (const e of detector.update(fix)) {
        if ((e.type === 'moving') === wantMoving) {
          start = e.fix;
          maxSpeed = e.maxSpeed;
        } else if (start) {
          // an event dated to an earlier fix closes before this fix's speed counts
          if (out === none) out = [];
          out.push({ start, end: e.fix, maxSpeed: e.fix === fix ? Math.max(maxSpeed, fix.speed) : maxSpeed });
          start = undefined;
        }
      }
      if (start) maxSpeed = Math.max(maxSpeed, fix.speed);
      last = fix;
      return out;
    },
    finish(): Interval<F>[] {
      if (!start || !last) return [];
      const open = { start, end: last, maxSpeed };
      start = undefined;
      return [open];
    },
  };
}
