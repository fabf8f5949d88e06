import type { ReportStop } from '@corridor/contracts';
import type { ReportFixRow } from '../clickhouse/report-positions';
import type { DeviceRun } from './device-runs';
import { fixTrack } from './fixes';
import { intervalBuilder, type Interval } from './intervals';
import { averageKnots, distanceBetween, gapBetween, engineHoursBetween, iso, odometers, spentFuel } from './measures';
import type { ReportDevice } from './report-devices';
import { field, type ReportTable } from './formats/table';
import type { TripThresholds } from './settings';

/** A stop as Traccar's StopReportItem: located at its first fix, engine hours over the stop. */
export function stopItem(device: ReportDevice, iv: Interval, t: TripThresholds): ReportStop {
  const { start, end } = iv;
  const distance = distanceBetween(start, end, t.ignoreOdometer);
  const gapDistance = gapBetween(start, end, t.ignoreOdometer);
  const duration = end.time - start.time;
  return {
    deviceId: device.id,
    deviceName: device.name,
    positionId: start.id,
    latitude: start.latitude,
    longitude: start.longitude,
    startTime: iso(start.time),
    endTime: iso(end.time),
    duration,
    engineHours: engineHoursBetween(start, end) ?? 0,
    spentFuel: spentFuel(start, end, device.attributes) ?? 0,
    ...odometers(start, end, t.ignoreOdometer),
    distance,
    gapDistance,
    averageSpeed: averageKnots(distance, duration),
    maxSpeed: iv.maxSpeed,
  };
}

/** One device's stops from its fixes (the same detection as its trips). */
export function stopsRun(device: ReportDevice, t: TripThresholds): DeviceRun<ReportFixRow, ReportStop> {
  const track = fixTrack(t.speedThreshold, t.maxSpeed);
  const intervals = intervalBuilder('stops', t);
  return {
    push: (row) => intervals.push(track(row)).map((iv) => stopItem(device, iv, t)),
    finish: () => intervals.finish().map((iv) => stopItem(device, iv, t)),
  };
}

export const stopsTable: ReportTable<ReportStop> = {
  name: 'stops',
  columns: [
    field('deviceName', 'text'),
    field('startTime', 'time'),
    field('endTime', 'time'),
    field('duration', 'duration'),
    field('address', 'text'),
    field('latitude', 'coordinate'),
    field('longitude', 'coordinate'),
    field('engineHours', 'duration'),
    field('spentFuel', 'number'),
    field('distance', 'distance'),
    field('gapDistance', 'distance'),
    field('startOdometer', 'distance'),
    field('endOdometer', 'distance'),
    field('deviceId', 'integer'),
    field('positionId', 'integer'),
  ],
};
