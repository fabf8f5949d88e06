import type { FixKey, ReportFixRow } from '../clickhouse/report-positions';
import type { MotionRun, MotionRunThresholds, RunConfirmation, RunFix } from '../clickhouse/report-motion-runs';
import type { MotionFix } from './fixes';
import type { Interval, IntervalKind } from './intervals';
import type { TripThresholds } from './settings';
import { completedItems } from './interval-items';

/**
 * Trips or stops from the runs the store computes (report-motion-runs.ts) for Traccar's older
 * motion model: the same answers as the per-fix detector (motion-old-logic.ts) and interval builder
 * (intervals.ts) give over every fix, found by stepping their state machine run by run instead of
 * fix by fix. Within a run the flag is constant, so the machine changes state only at the run's
 * first fix (a flip, or a data gap that stops a confirmed trip), at its second (a streak restarting
 * after such a gap) and at the confirming fix the store found for a streak.
 *
 * The store can answer for a device when it uses the older model and minimalTripDuration is at most
 * minimalNoDataDuration: then a streak in motion carried across a data gap is confirmed at the gap's
 * far fix (its duration is at least the gap), which is the only place a streak spans two runs.
 */
export const runsAnswer = (t: TripThresholds): boolean => !t.newLogic && t.minimalTripDuration <= t.minimalNoDataDuration;

export const runThresholds = (t: TripThresholds): MotionRunThresholds => ({
  speedThreshold: t.speedThreshold,
  minimalTripDuration: t.minimalTripDuration,
  minimalTripDistance: t.minimalTripDistance,
  minimalParkingDuration: t.minimalParkingDuration,
  minimalNoDataDuration: t.minimalNoDataDuration,
  useIgnition: t.useIgnition,
});

/** Where in a run an event is noticed: its first fix or a confirming fix. */
type At = 'first' | RunConfirmation;
interface RunEvent {
  moving: boolean;
  fix: RunFix;
  maxSpeed: number;
  at: At;
}

const motionFix = (f: RunFix, moving: boolean): MotionFix => ({
  deviceId: f.deviceId,
  id: f.id,
  time: f.time,
  latitude: f.latitude,
  longitude: f.longitude,
  speed: f.speed,
  ignition: null,
  motion: null,
  path: f.path,
  gap: f.gap,
  leg: 0,
  ignitionMs: f.ignitionMs,
  ignitionFixes: f.ignitionFixes,
  moving,
});

/** One device's intervals, fed its runs in order. */
function runIntervals(kind: IntervalKind, t: TripThresholds) {
  const want = kind === 'trips';
  let started = false;
  let confirmed = false; // Traccar's motionStreak
  let state = false; // the last fix's flag as the machine holds it (motionState)
  let pending: { fix: RunFix; max: number } | undefined; // an unconfirmed streak: its first fix, its top speed so far
  let previous: MotionRun | undefined;
  // the open interval: its first fix, and its top speed through the fix before `at` of the current run (or its end)
  let open: { start: RunFix; startMoving: boolean; max: number; at: At | undefined } | undefined;

  function events(run: MotionRun): RunEvent[] {
    const out: RunEvent[] = [];
    if (run.afterGap && confirmed) {
      // no data for minimalNoDataDuration while in a trip: stopped at the fix before the gap
      out.push({ moving: false, fix: previous!.last, maxSpeed: previous!.last.speed, at: 'first' });
      confirmed = false;
      state = false;
      pending = undefined;
      if (run.fixes > 1) {
        state = run.moving;
        if (run.moving && run.fromSecond) {
          out.push({ moving: true, fix: run.second!, maxSpeed: run.fromSecond.streakMax, at: run.fromSecond });
          confirmed = true;
        } else if (run.moving) {
          pending = { fix: run.second!, max: run.maxAfterFirst };
        }
      }
    } else if (run.moving !== state) {
      state = run.moving;
      pending = undefined;
      if (run.moving !== confirmed) {
        if (run.fromFirst) {
          out.push({ moving: run.moving, fix: run.first, maxSpeed: run.fromFirst.streakMax, at: run.fromFirst });
          confirmed = run.moving;
        } else {
          pending = { fix: run.first, max: run.maxSpeed };
        }
      }
    } else if (pending) {
      // a streak in motion carried over a data gap (no flip, and only a gap splits a run without one)
      const elapsed = run.first.time - pending.fix.time;
      if (
        !run.afterGap ||
        !run.moving ||
        !(elapsed >= t.minimalTripDuration || run.first.path - pending.fix.path >= t.minimalTripDistance)
      ) {
        throw new Error(`motion runs: a streak spans runs unconfirmed (device ${run.deviceId} at ${run.first.time})`);
      }
      out.push({ moving: true, fix: pending.fix, maxSpeed: Math.max(pending.max, run.first.speed), at: 'first' });
      confirmed = true;
      pending = undefined;
    }
    return out;
  }

  /** Top speed of the run's fixes from `from` (undefined: the run's start) up to `to` (undefined: its end), `to` itself excluded. */
  function within(run: MotionRun, from: At | undefined, to: At | undefined): number {
    if (to === undefined) return from === undefined || from === 'first' ? run.maxSpeed : from.maxFrom;
    if (to === 'first') return -Infinity;
    if (from === undefined || from === 'first') return to.maxBefore;
    throw new Error('motion runs: an interval opened and closed at two confirmations of one run');
  }

  return {
    push(run: MotionRun): Interval<MotionFix>[] {
      const out: Interval<MotionFix>[] = [];
      if (!started) {
        started = true;
        confirmed = state = run.moving;
        if (run.moving === want) open = { start: run.first, startMoving: run.moving, max: run.first.speed, at: 'first' };
      } else {
        for (const e of events(run)) {
          if (e.moving === want) {
            open = { start: e.fix, startMoving: e.moving, max: e.maxSpeed, at: e.at };
          } else if (open) {
            const max = Math.max(open.max, within(run, open.at, e.at));
            out.push({ start: motionFix(open.start, open.startMoving), end: motionFix(e.fix, e.moving), maxSpeed: max });
            open = undefined;
          }
        }
      }
      if (open) {
        open.max = Math.max(open.max, within(run, open.at, undefined));
        open.at = undefined;
      }
      previous = run;
      return out;
    },
    finish(): Interval<MotionFix>[] {
      if (!open || !previous) return [];
      const last = { start: motionFix(open.start, open.startMoving), end: motionFix(previous.last, previous.moving), maxSpeed: open.max };
      open = undefined;
      return [last];
    },
  };
}

export interface MotionRunItemsOptions<T> {
  kind: IntervalKind;
  thresholdsOf(deviceId: number): TripThresholds;
  /** The stored rows of the fixes intervals begin and end at (queryFixesAt). */
  lookup(keys: FixKey[]): Promise<Map<string, ReportFixRow>>;
  item(deviceId: number, interval: Interval): T;
}

/** Report items from the runs of devices (in device order), a batch per batch of runs. */
export async function* motionRunItems<T>(batches: AsyncIterable<MotionRun[]>, o: MotionRunItemsOptions<T>): AsyncGenerator<T[]> {
  let deviceId: number | undefined;
  let intervals: ReturnType<typeof runIntervals> | undefined;
  for await (const batch of batches) {
    const found: [number, Interval<MotionFix>][] = [];
    for (const run of batch) {
      if (run.deviceId !== deviceId) {
        if (intervals) for (const iv of intervals.finish()) found.push([deviceId!, iv]);
        deviceId = run.deviceId;
        intervals = runIntervals(o.kind, o.thresholdsOf(deviceId));
      }
      for (const iv of intervals!.push(run)) found.push([deviceId, iv]);
    }
    const items = await completedItems(found, o);
    if (items.length) yield items;
  }
  const rest = await completedItems(intervals ? intervals.finish().map((iv) => [deviceId!, iv] as [number, Interval<MotionFix>]) : [], o);
  if (rest.length) yield rest;
}
