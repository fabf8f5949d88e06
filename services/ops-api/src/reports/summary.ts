import type { ReportSummary } from '@corridor/contracts';
import type { SummaryEnd, SummaryPart, SummaryPlace } from '../clickhouse/report-summary';
import type { DeviceRun } from './device-runs';
import { isJump } from '../clickhouse/report-jumps';
import { fixDistance } from './fixes';
import { averageKnots, distanceBetween, engineHoursBetween, gapBetween, iso, odometers, spentFuel, type Measured } from './measures';
import type { ReportDevice } from './report-devices';
import { field, type ReportTable } from './formats/table';

export interface SummaryOptions {
  ignoreOdometer: boolean;
  /** knots: the highest plausible speed (legs that would need more are jumps). */
  maxSpeed: number;
}

interface Bucket {
  first: Measured;
  last: Measured;
  maxSpeed: number;
  movingSpeedSum: number;
  movingFixes: number;
}

/**
 * Traccar's summary of one device over the period (or over each calendar day of it): first and last
 * fix, distance between them, highest speed, engine hours and fuel. Average speed is the distance
 * over engine hours as Traccar computes it; without engine data, the mean speed of the fixes in
 * motion. Periods without fixes give no row.
 */
export function summaryItem(device: ReportDevice, b: Bucket, o: SummaryOptions): ReportSummary {
  const { first, last } = b;
  const distance = distanceBetween(first, last, o.ignoreOdometer);
  const engineHours = engineHoursBetween(first, last);
  const hoursKnown = first.hours !== null && last.hours !== null;
  return {
    deviceId: device.id,
    deviceName: device.name,
    distance,
    gapDistance: gapBetween(first, last, o.ignoreOdometer),
    averageSpeed: engineHours ? averageKnots(distance, engineHours) : b.movingFixes ? b.movingSpeedSum / b.movingFixes : 0,
    maxSpeed: b.maxSpeed,
    spentFuel: spentFuel(first, last, device.attributes) ?? 0,
    ...odometers(first, last, o.ignoreOdometer),
    startTime: iso(first.time),
    endTime: iso(last.time),
    startHours: hoursKnown ? Math.round(first.hours!) : null,
    endHours: hoursKnown ? Math.round(last.hours!) : null,
    engineHours: engineHours ?? 0,
  };
}

/**
 * One device's summary from the sums ClickHouse computed (report-summary.ts), parts in time order.
 * The running totals the measures read (path, jumps, ignition time, instants with ignition, from the
 * device's first instant of the report) are carried from part to part over the leg that joins them
 * (from the last located instant so far to the part's first), as a pass over the fixes would add it;
 * parts of the same day make one row. Status-only records move nothing (report-summary.ts).
 */
export function summaryRun(device: ReportDevice, o: SummaryOptions): DeviceRun<SummaryPart, ReportSummary> {
  let bucket: Bucket | undefined;
  let day = -1;
  let prev: { end: SummaryEnd; at: Measured } | undefined; // the last instant so far, with its running totals
  let place: SummaryPlace | null = null; // the last located instant so far

  return {
    push(part) {
      const out: ReportSummary[] = [];
      const leg = place && part.firstPlace ? fixDistance(place, part.firstPlace) : 0;
      const jump =
        place && part.firstPlace ? isJump(leg, part.firstPlace.time - place.time, place.speed, part.firstPlace.speed, o.maxSpeed) : false;
      place = part.lastPlace ?? place;
      const ignitionLeg = prev?.end.ignition === true && part.first.ignition === true ? part.first.time - prev.end.time : 0;
      const before = prev?.at.ignitionFixes ?? 0;
      const first: Measured = {
        ...part.first,
        path: (prev?.at.path ?? 0) + (jump ? 0 : leg),
        gap: (prev?.at.gap ?? 0) + (jump ? leg : 0),
        ignitionMs: (prev?.at.ignitionMs ?? 0) + ignitionLeg,
        ignitionFixes: before + (part.first.ignition === null ? 0 : 1),
      };
      const last: Measured = {
        ...part.last,
        path: first.path + part.path,
        gap: first.gap + part.gap,
        ignitionMs: first.ignitionMs + part.ignitionMs,
        ignitionFixes: before + part.ignitionFixes,
      };
      prev = { end: part.last, at: last };
      if (bucket && part.day === day) {
        bucket.last = last;
        bucket.maxSpeed = Math.max(bucket.maxSpeed, part.maxSpeed);
        bucket.movingSpeedSum += part.movingSpeedSum;
        bucket.movingFixes += part.movingFixes;
        return out;
      }
      if (bucket) out.push(summaryItem(device, bucket, o));
      day = part.day;
      bucket = { first, last, maxSpeed: part.maxSpeed, movingSpeedSum: part.movingSpeedSum, movingFixes: part.movingFixes };
      return out;
    },
    finish() {
      return bucket ? [summaryItem(device, bucket, o)] : [];
    },
  };
}

export const summaryTable: ReportTable<ReportSummary> = {
  name: 'summary',
  columns: [
    field('deviceName', 'text'),
    field('startTime', 'time'),
    field('endTime', 'time'),
    field('distance', 'distance'),
    field('averageSpeed', 'speed'),
    field('maxSpeed', 'speed'),
    field('engineHours', 'duration'),
    field('spentFuel', 'number'),
    field('gapDistance', 'distance'),
    field('startOdometer', 'distance'),
    field('endOdometer', 'distance'),
    field('startHours', 'duration'),
    field('endHours', 'duration'),
    field('deviceId', 'integer'),
  ],
};
