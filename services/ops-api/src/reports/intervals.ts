import { MPS_TO_KNOTS, type MotionFix, type ReportFix } from './fixes';
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
  /**
   * The device reported no speed (0 at every fix so far): maxSpeed is the fastest leg of the track
   * instead (trackTopSpeed), and an item shows at least its average (trips.ts).
   */
  topFromTrack?: boolean;
}

export type IntervalKind = 'trips' | 'stops';

const motionDetector = <F extends MotionFix>(t: TripThresholds, first: F): MotionDetector<F> =>
  t.newLogic ? newMotionDetector(t, first) : oldMotionDetector(t, first);

/** What a fix that settles nothing returns (never written to). */
const none: never[] = [];

/**
 * The top speed of a trip from a device that reports no speed (0 at every fix, or absent, which the
 * store holds as 0: a tracker that measures none): its fastest driven leg, metres over seconds
 * between consecutive fixes (a jump's leg is not driven: report-jumps.ts). Without it such a trip
 * shows a top speed of 0 under a positive average (issue 28). The legs are kept only while no fix of
 * the device has reported a speed, and only since the last event (no interval starts before it).
 */
function trackTopSpeed() {
  let reported = false;
  let previous: MotionFix | undefined;
  let times: number[] = [];
  let speeds: number[] = [];
  let head = 0;
  return {
    /** Whether a fix of the device reported a speed (then the top speed is the reported one). */
    get reported() {
      return reported;
    },
    push(fix: MotionFix): void {
      if (!reported && fix.speed > 0) {
        reported = true;
        times = [];
        speeds = [];
        head = 0;
      }
      if (!reported && previous && fix.time > previous.time) {
        times.push(fix.time);
        speeds.push(((fix.path - previous.path) / ((fix.time - previous.time) / 1000)) * MPS_TO_KNOTS);
      }
      previous = fix;
    },
    /** No interval asks for legs ending at or before `time` any more (an event was dated there). */
    forget(time: number): void {
      while (head < times.length && times[head]! <= time) head++;
      if (head > 1024 && head * 2 > times.length) {
        times = times.slice(head);
        speeds = speeds.slice(head);
        head = 0;
      }
    },
    /** The fastest leg ending after `from` and at or before `to` (epoch ms), knots. */
    between(from: number, to: number): number {
      let top = 0;
      for (let i = head; i < times.length && times[i]! <= to; i++) if (times[i]! > from && speeds[i]! > top) top = speeds[i]!;
      return top;
    },
  };
}

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
  const legs = wantMoving ? trackTopSpeed() : undefined;
  /** The interval from start to end, its top speed from the track when the device reports none. */
  const interval = (from: F, to: F, reportedMax: number): Interval<F> =>
    legs && !legs.reported
      ? { start: from, end: to, maxSpeed: legs.between(from.time, to.time), topFromTrack: true }
      : { start: from, end: to, maxSpeed: reportedMax };

  return {
    push(fix: F): Interval<F>[] {
      let out: Interval<F>[] = none; // most fixes close nothing: no array for them
      legs?.push(fix);
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
          out.push(interval(start, e.fix, e.fix === fix ? Math.max(maxSpeed, fix.speed) : maxSpeed));
          start = undefined;
        }
        legs?.forget(e.fix.time);
      }
      if (start) maxSpeed = Math.max(maxSpeed, fix.speed);
      last = fix;
      return out;
    },
    /**
     * Whether the fixes of a moving stretch may pass (moving-stretch.ts): the newer model moving and,
     * for trips, a speed reported by the device (else every leg is kept for the top speed).
     */
    passable(): boolean {
      return detector?.moving?.() === true && (legs === undefined || legs.reported);
    },
    /** The fix a moving stretch's passed fixes end at (their totals in it), and their top speed. */
    pass(fix: F, topSpeed: number): void {
      legs?.push(fix);
      detector!.pass!(fix);
      if (start) maxSpeed = Math.max(maxSpeed, topSpeed);
      last = fix;
    },
    finish(): Interval<F>[] {
      if (!start || !last) return [];
      const open = interval(start, last, maxSpeed);
      start = undefined;
      return [open];
    },
  };
}
