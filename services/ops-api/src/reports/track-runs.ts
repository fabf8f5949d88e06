import type { FixKey, ReportFixRow } from '@corridor/platform/clickhouse/report-positions';
import type { TrackChunk } from '@corridor/platform/clickhouse/report-track';
import { fixTrack, type MotionFix } from './fixes';
import { completedItems } from './interval-items';
import { intervalBuilder, type Interval, type IntervalKind } from './intervals';
import type { TripThresholds } from './settings';

export interface TrackRunsOptions<T> {
  kind: IntervalKind;
  thresholdsOf(deviceId: number): TripThresholds;
  /** The stored rows of the fixes intervals begin and end at (queryFixesAt). */
  lookup(keys: FixKey[]): Promise<Map<string, ReportFixRow>>;
  item(deviceId: number, interval: Interval): T;
}

/** A fix of a track as the detectors read it (the totals are set by fixTrack; a fixed shape from the start). */
const trackFix = (c: TrackChunk, i: number): MotionFix => ({
  deviceId: c.deviceId, id: c.id[i]!, time: c.time[i]!, latitude: c.latitude[i]!, longitude: c.longitude[i]!, speed: c.speed[i]!,
  ignition: c.ignition[i]! < 0 ? null : c.ignition[i] === 1, motion: c.motion[i]! < 0 ? null : c.motion[i] === 1,
  path: 0, leg: 0, ignitionMs: 0, ignitionFixes: 0, moving: false,
});

/**
 * Trips or stops from the tracks the store sends (report-track.ts), folded by the same detectors
 * and interval builder as the fixes read whole (trips.ts, stops.ts): per device, oldest first, one
 * device's state at a time. A chunk batch's intervals are completed with their two stored rows
 * (one query per batch) and yielded.
 */
export async function* trackRuns<T>(batches: AsyncIterable<TrackChunk[]>, o: TrackRunsOptions<T>): AsyncGenerator<T[]> {
  let deviceId: number | undefined;
  let track: ((row: MotionFix) => MotionFix) | undefined;
  let intervals: ReturnType<typeof intervalBuilder<MotionFix>> | undefined;
  let found: [number, Interval<MotionFix>][] = [];

  async function complete(): Promise<T[]> {
    const done = found;
    found = [];
    return completedItems(done, o);
  }

  for await (const batch of batches) {
    for (const c of batch) {
      if (c.deviceId !== deviceId) {
        if (intervals) for (const iv of intervals.finish()) found.push([deviceId!, iv]);
        deviceId = c.deviceId;
        const t = o.thresholdsOf(deviceId);
        track = fixTrack<MotionFix>(t.speedThreshold);
        intervals = intervalBuilder<MotionFix>(o.kind, t);
      }
      for (let i = 0; i < c.length; i++) {
        for (const iv of intervals!.push(track!(trackFix(c, i)))) found.push([deviceId, iv]);
      }
    }
    const items = await complete();
    if (items.length) yield items;
  }
  if (intervals) for (const iv of intervals.finish()) found.push([deviceId!, iv]);
  const rest = await complete();
  if (rest.length) yield rest;
}
