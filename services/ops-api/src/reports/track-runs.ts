import type { FixKey, StoredFields } from '../clickhouse/report-positions';
import type { TrackChunk } from '../clickhouse/report-track';
import { fixTrack, type MotionFix } from './fixes';
import { completedItems } from './interval-items';
import { intervalBuilder, type Interval, type IntervalKind } from './intervals';
import { movingStretch } from './moving-stretch';
import type { TripThresholds } from './settings';

/**
 * How long a run of identical fixes (same position, speed, ignition and `motion`) the track must
 * keep for a device's detector (report-track.ts StillRunSpan): with Traccar's newer model and a
 * positive minDistance, a run is kept through its second fix at least minDuration after its first,
 * and its last fix; the fixes between change no answer. Within such a run every leg is 0 m, so:
 * - the gap rule never fires (it needs a leg of minDistance);
 * - stopped, the detector moves only at the run's first fix (the distance to the last event's fix
 *   is the same at every fix of the run), and an event there dates the anchor to a fix at the
 *   run's position;
 * - moving, it settles by that second fix at the latest: the window then holds only fixes of the
 *   run, spanning minDuration; so after it the detector is stopped and silent to the run's end;
 * - afterwards the window holds a fix at the run's position wherever it held one before (the last
 *   fix, or the kept one before a dropped fix), so settling and back-dating read the same
 *   distances; back-dating stops at the run's last fix (a 0 m leg before it); the oldest window
 *   fix lies minDuration before the previous fix with or without the dropped ones;
 * - the running totals agree (0 m legs; ignition time summed over the same span) but the count of
 *   fixes carrying ignition, of which only "any" is read; the top speed is the run's one speed.
 * The older model times streaks fix by fix: its tracks are kept whole. Proven against the fold over
 * every fix by track-runs.test.ts (runs of identical fixes, random newer-model thresholds).
 */
export const stillRunSpan = (t: TripThresholds): number | undefined => (t.newLogic && t.minDistance > 0 ? t.minDuration : undefined);

export interface TrackRunsOptions<T> {
  kind: IntervalKind;
  thresholdsOf(deviceId: number): TripThresholds;
  /** The stored fields the track lacks of the fixes intervals begin and end at (queryStoredAt). */
  lookup(keys: FixKey[]): Promise<Map<string, StoredFields>>;
  item(deviceId: number, interval: Interval): T;
}

/** A fix of a track as the detectors read it (the totals are set by fixTrack; a fixed shape from the start). */
const trackFix = (c: TrackChunk, i: number): MotionFix => ({
  deviceId: c.deviceId,
  id: c.id[i]!,
  time: c.time[i]!,
  latitude: c.latitude[i]!,
  longitude: c.longitude[i]!,
  speed: c.speed[i]!,
  ignition: c.ignition[i]! < 0 ? null : c.ignition[i] === 1,
  motion: c.motion[i]! < 0 ? null : c.motion[i] === 1,
  path: 0,
  gap: 0,
  leg: 0,
  ignitionMs: 0,
  ignitionFixes: 0,
  moving: false,
});

/**
 * Intervals completed per lookup (two keys each): a lookup re-reads every granule of its devices'
 * rows whatever few rows it asks for, so asking once for many devices' intervals reads less than
 * once per track batch (tools/bench reports: 13 lookups of a 1,000 device-day fleet became 3).
 */
const LOOKUP_INTERVALS = 1_000;

/**
 * Trips or stops from the tracks the store sends (report-track.ts), folded by the same detectors
 * and interval builder as the fixes read whole (trips.ts, stops.ts): per device, oldest first, one
 * device's state at a time. Intervals are completed with their two ends' stored fields (one query
 * per LOOKUP_INTERVALS intervals found, and one at the end) and yielded in the order found. A
 * lookup runs while the fold goes on with the next batches (one at a time: its items are yielded
 * before the next lookup starts), so the store's work and the fold's overlap. With the newer model,
 * a moving stretch (legs of minDistance or more, no gap) is summed into the running totals without
 * a fix object or a detector step for each fix (moving-stretch.ts: the same totals, the same window).
 */
export async function* trackRuns<T>(batches: AsyncIterable<TrackChunk[]>, o: TrackRunsOptions<T>): AsyncGenerator<T[]> {
  let deviceId: number | undefined;
  let track: ((row: MotionFix) => MotionFix) | undefined;
  let intervals: ReturnType<typeof intervalBuilder<MotionFix>> | undefined;
  let found: [number, Interval<MotionFix>][] = [];
  let lookup: Promise<T[]> | undefined;

  /** Starts completing the intervals found so far; the previous lookup's items, once it is done. */
  async function complete(): Promise<T[]> {
    const previous = lookup;
    const done = found;
    found = [];
    lookup = completedItems(done, o);
    lookup.catch(() => undefined); // awaited below or by the next call; a failure surfaces there
    return previous ? await previous : [];
  }

  let t: TripThresholds | undefined;
  for await (const batch of batches) {
    for (const c of batch) {
      if (c.deviceId !== deviceId) {
        if (intervals) for (const iv of intervals.finish()) found.push([deviceId!, iv]);
        deviceId = c.deviceId;
        t = o.thresholdsOf(deviceId);
        track = fixTrack<MotionFix>(t.speedThreshold, t.maxSpeed);
        intervals = intervalBuilder<MotionFix>(o.kind, t);
      }
      // a moving stretch of the newer model is passed through (moving-stretch.ts); `scanned`: the
      // last fix of the stretch scanned, before which no other one begins
      let fix: MotionFix | undefined;
      let scanned = 0;
      for (let i = 0; i < c.length; i++) {
        if (fix && i > scanned && t!.newLogic && intervals!.passable()) {
          const { last, stretch } = movingStretch(c, i, fix, t!);
          scanned = last;
          if (stretch) {
            intervals!.pass(stretch.fix, stretch.topSpeed);
            track = fixTrack<MotionFix>(t!.speedThreshold, t!.maxSpeed, stretch.fix);
            fix = stretch.fix;
            i = stretch.index;
            continue;
          }
        }
        fix = track!(trackFix(c, i));
        for (const iv of intervals!.push(fix)) found.push([deviceId, iv]);
      }
    }
    if (found.length < LOOKUP_INTERVALS) continue;
    const items = await complete();
    if (items.length) yield items;
  }
  if (intervals) for (const iv of intervals.finish()) found.push([deviceId!, iv]);
  const before = await complete();
  if (before.length) yield before;
  const rest = await lookup!;
  if (rest.length) yield rest;
}
