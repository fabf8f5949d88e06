import { fixDistance, type MotionFix } from './fixes';
import type { MotionDetector, MotionEvent } from './motion';
import type { TripThresholds } from './settings';

/** What a fix that settles nothing returns (never written to). */
const none: never[] = [];

/** What the newer model carries from one fix to the next (to keep it between batches: device-state motion-state.ts). */
export interface NewMotionSaved<F> {
  moving: boolean;
  anchor: F;
  /** the window's fixes, oldest first */
  window: F[];
}

/**
 * Traccar's distance-based motion model (report.trip.newLogic, NewMotionProcessor), with the
 * window of recent fixes the report keeps beside it:
 * - stopped → moving once a fix lies minDistance or more from the last event's position; the start
 *   is back-dated over the buffered fixes whose legs ran faster than minDistance / minDuration
 *   (so a trip starts at the last fix before the vehicle pulled away, not where it was noticed),
 *   never before the last event's fix;
 * - moving → stopped once every fix of the last minDuration lies within minDistance of the current
 *   one (and the window spans minDuration); the stop is dated to the current fix;
 * - a data gap longer than stopGap that covered minDistance at more than that average speed is a
 *   trip of its own: stopped (at the last fix, if moving) / moving (at the last fix) / stopped (at
 *   the new fix).
 * The window holds the fixes of the last minDuration plus the latest one before it.
 */
export function newMotionDetector<F extends MotionFix>(
  t: Pick<TripThresholds, 'minDistance' | 'minDuration' | 'stopGap'>,
  first: F,
  saved?: NewMotionSaved<F>,
): Required<MotionDetector<F>> & { save(): NewMotionSaved<F>; now(): { moving: boolean; anchor: F } } {
  const minSpeed = t.minDistance / t.minDuration; // metres per millisecond
  let moving = saved ? saved.moving : first.moving;
  let anchor: F = saved ? saved.anchor : first;
  let window: F[] = saved ? [...saved.window] : [];
  let head = 0; // window[head] is the oldest kept fix

  const event = (type: MotionEvent['type'], fix: F, maxSpeed = 0): MotionEvent<F> => {
    anchor = fix;
    return { type, fix, maxSpeed };
  };

  function backdatedStart(fix: F): MotionEvent<F> {
    let start = fix;
    let maxSpeed = fix.speed;
    for (let i = window.length - 1; i >= head; i--) {
      const candidate = window[i]!;
      if (candidate.time < anchor.time) break; // never back before the last event (e.g. across a gap just split off)
      const legTime = start.time - candidate.time;
      if (legTime <= 0 || fixDistance(candidate, start) / legTime <= minSpeed) break;
      start = candidate;
      maxSpeed = Math.max(maxSpeed, candidate.speed);
    }
    return event('moving', start, maxSpeed);
  }

  function settledWithin(fix: F): boolean {
    if (fix.leg >= t.minDistance) return false; // window's newest fix is the previous one
    for (let i = window.length - 2; i >= head; i--) if (fixDistance(window[i]!, fix) >= t.minDistance) return false;
    return fix.time - window[head]!.time >= t.minDuration;
  }

  function remember(fix: F): void {
    window.push(fix);
    while (window.length - head > 1 && fix.time - window[head + 1]!.time >= t.minDuration) head++;
    if (head > 64 && head * 2 > window.length) {
      // early, so few fixes outlive the young generation
      window = window.slice(head);
      head = 0;
    }
  }

  return {
    save: () => ({ moving, anchor, window: window.slice(head) }),
    /** the state without its window (what device-state keeps in the cache while it holds the detector) */
    now: () => ({ moving, anchor }),
    moving: () => moving,
    pass: remember,
    update(fix) {
      let events: MotionEvent<F>[] = none; // most fixes settle nothing: no array for them
      const last = window[window.length - 1];
      if (last) {
        const gap = fix.time - last.time;
        const gapDistance = fix.leg;
        if (gap > t.stopGap && gapDistance >= t.minDistance && gapDistance / gap > minSpeed) {
          events = moving ? [event('stopped', last)] : [];
          events.push(event('moving', last, Math.max(last.speed, fix.speed)));
          events.push(event('stopped', fix));
          moving = false;
        } else if (moving) {
          if (settledWithin(fix)) {
            moving = false;
            events = [event('stopped', fix)];
          }
        } else if (fixDistance(anchor, fix) >= t.minDistance) {
          moving = true;
          events = [backdatedStart(fix)];
        }
      }
      remember(fix);
      return events;
    },
  };
}
