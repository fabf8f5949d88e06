import { isJump } from '../clickhouse/report-jumps';
import type { TrackChunk } from '../clickhouse/report-track';
import { distanceMetresLatLon } from '@corridor/geodata/geo-math';
import type { MotionFix } from './fixes';
import type { TripThresholds } from './settings';

/**
 * A drive the newer motion model passes through without looking (issue 28: a 1,000 device-day
 * report is 840,000 driving fixes, each once a fix object, a detector step and a window entry).
 * Moving, Traccar's newer model (motion-new-logic.ts) settles nothing at a fix whose leg is at least
 * minDistance (settledWithin fails on it) unless the gap rule fires (a gap over stopGap covered
 * faster than minDistance / minDuration): such a fix only joins the window. The window after a
 * fix holds the latest fix at least minDuration older than it and every fix since; so of a stretch
 * of such fixes ending at `last`, the fixes before `window` (the latest at least minDuration before
 * `last`) are never read again once `last` is reached: they are summed into the running totals in
 * order (the same additions as fixTrack, so every total is the same double) and left out; `window`
 * enters the window as the previous fix of the next one; the fixes after it go through the detector.
 * The interval builder only takes the top speed of the fixes left out (intervals.ts `pass`).
 */
export interface MovingStretch {
  /** The fix `window` with its running totals: the fixes before it are summed into them. */
  fix: MotionFix;
  /** Its index in the chunk. */
  index: number;
  /** The highest speed of the fixes from the first one passed through `window`, knots. */
  topSpeed: number;
}

/** The legs of the stretch being scanned (metres), reused: leg j is from fix j - 1 to fix j of the chunk. */
let legs = new Float64Array(1024);

/**
 * The stretch of chunk `c` from fix `from` (≥ 1; `prev` is the fix of row `from - 1`, with its
 * totals, the detector moving after it), its legs each at least minDistance and without the gap
 * rule's gap; `last` is its last fix (a scan from any fix up to it finds no other stretch).
 * `stretch` is undefined when passing through leaves no fix out.
 */
export function movingStretch(
  c: TrackChunk,
  from: number,
  prev: MotionFix,
  t: Pick<TripThresholds, 'minDistance' | 'minDuration' | 'stopGap' | 'speedThreshold' | 'maxSpeed'>,
): { last: number; stretch?: MovingStretch } {
  const minSpeed = t.minDistance / t.minDuration; // as the detector computes it
  const { time, latitude, longitude, speed, ignition } = c;
  if (legs.length < c.length) legs = new Float64Array(Math.max(c.length, legs.length * 2));
  let last = from - 1;
  for (let j = from; j < c.length; j++) {
    const leg = distanceMetresLatLon(latitude[j - 1]!, longitude[j - 1]!, latitude[j]!, longitude[j]!);
    const gap = time[j]! - time[j - 1]!;
    if (!(leg >= t.minDistance) || (gap > t.stopGap && leg / gap > minSpeed)) break;
    legs[j] = leg;
    last = j;
  }
  // the latest fix at least minDuration before the last: the window's oldest once the last is in it
  let w = last;
  while (w > from && time[last]! - time[w]! < t.minDuration) w--;
  if (w <= from || time[last]! - time[w]! < t.minDuration) return { last };
  // the running totals through fix w, added as fixTrack adds them (the same doubles)
  let { path, gap, ignitionMs, ignitionFixes } = prev;
  let topSpeed = 0;
  for (let j = from; j <= w; j++) {
    const ms = time[j]! - time[j - 1]!;
    const jump = isJump(legs[j]!, ms, speed[j - 1]!, speed[j]!, t.maxSpeed);
    path = path + (jump ? 0 : legs[j]!);
    gap = gap + (jump ? legs[j]! : 0);
    ignitionMs = ignitionMs + (ignition[j - 1] === 1 && ignition[j] === 1 ? ms : 0);
    ignitionFixes = ignitionFixes + (ignition[j]! < 0 ? 0 : 1);
    if (speed[j]! > topSpeed) topSpeed = speed[j]!;
  }
  const motion = c.motion[w]! < 0 ? null : c.motion[w] === 1;
  const fix: MotionFix = {
    deviceId: c.deviceId,
    id: c.id[w]!,
    time: time[w]!,
    latitude: latitude[w]!,
    longitude: longitude[w]!,
    speed: speed[w]!,
    ignition: ignition[w]! < 0 ? null : ignition[w] === 1,
    motion,
    path,
    gap,
    leg: legs[w]!,
    ignitionMs,
    ignitionFixes,
    moving: motion ?? speed[w]! > t.speedThreshold,
  };
  return { last, stretch: { fix, index: w, topSpeed } };
}
