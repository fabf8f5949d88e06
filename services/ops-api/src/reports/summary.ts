import type { ReportSummary } from '@corridor/contracts';
import type { ReportFixRow } from '@corridor/platform/clickhouse/report-positions';
import type { DeviceRun } from './device-runs';
import { fixTrack, type ReportFix } from './fixes';
import { averageKnots, distanceBetween, engineHoursBetween, iso, odometers, spentFuel } from './measures';
import type { ReportDevice } from './report-devices';
import { field, type ReportTable } from './formats/table';

export interface SummaryOptions {
  ignoreOdometer: boolean;
  speedThreshold: number;
  /** Instants splitting the period into calendar days (daily=true), ascending; empty = one row per device. */
  boundaries: number[];
}

interface Bucket {
  first: ReportFix;
  last: ReportFix;
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
    deviceId: device.id, deviceName: device.name, distance,
    averageSpeed: engineHours ? averageKnots(distance, engineHours) : b.movingFixes ? b.movingSpeedSum / b.movingFixes : 0,
    maxSpeed: b.maxSpeed, spentFuel: spentFuel(first, last, device.attributes), ...odometers(first, last, o.ignoreOdometer),
    startTime: iso(first.time), endTime: iso(last.time),
    startHours: hoursKnown ? Math.round(first.hours!) : null, endHours: hoursKnown ? Math.round(last.hours!) : null, engineHours,
  };
}

export function summaryRun(device: ReportDevice, o: SummaryOptions): DeviceRun<ReportFixRow, ReportSummary> {
  const track = fixTrack(o.speedThreshold);
  let bucket: Bucket | undefined;
  let day = 0; // index of the calendar day the current bucket covers

  return {
    push(row) {
      const fix = track(row);
      const out: ReportSummary[] = [];
      let d = day;
      while (d < o.boundaries.length && fix.time >= o.boundaries[d]!) d++;
      if (bucket && d !== day) {
        out.push(summaryItem(device, bucket, o));
        bucket = undefined;
      }
      day = d;
      if (!bucket) bucket = { first: fix, last: fix, maxSpeed: 0, movingSpeedSum: 0, movingFixes: 0 };
      bucket.last = fix;
      bucket.maxSpeed = Math.max(bucket.maxSpeed, fix.speed);
      if (fix.moving) {
        bucket.movingSpeedSum += fix.speed;
        bucket.movingFixes++;
      }
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
    field('deviceId', 'Device id', 'integer'),
    field('deviceName', 'Device', 'text'),
    field('startTime', 'Start (UTC)', 'time'),
    field('endTime', 'End (UTC)', 'time'),
    field('distance', 'Distance (m)', 'number'),
    field('startOdometer', 'Start odometer (m)', 'number'),
    field('endOdometer', 'End odometer (m)', 'number'),
    field('averageSpeed', 'Average speed (kn)', 'number'),
    field('maxSpeed', 'Max speed (kn)', 'number'),
    field('engineHours', 'Engine hours', 'duration'),
    field('startHours', 'Start engine hours', 'duration'),
    field('endHours', 'End engine hours', 'duration'),
    field('spentFuel', 'Spent fuel (l)', 'number'),
  ],
};
