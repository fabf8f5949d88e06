import { withoutNulls, type ReportTrip } from '@corridor/contracts';
import type { ReportFixRow } from '../clickhouse/report-positions';
import type { DeviceRun } from './device-runs';
import { fixTrack } from './fixes';
import { intervalBuilder, type Interval } from './intervals';
import { averageKnots, distanceBetween, gapBetween, iso, odometers, spentFuel } from './measures';
import type { ReportDevice } from './report-devices';
import { field, type ReportTable } from './formats/table';
import type { TripThresholds } from './settings';

/** A trip as Traccar's TripReportItem (driverName is filled in afterwards from the drivers). */
export function tripItem(device: ReportDevice, iv: Interval, t: TripThresholds): ReportTrip {
  const { start, end } = iv;
  const distance = distanceBetween(start, end, t.ignoreOdometer);
  const gapDistance = gapBetween(start, end, t.ignoreOdometer);
  const duration = end.time - start.time;
  const averageSpeed = averageKnots(distance, duration);
  return {
    deviceId: device.id,
    deviceName: device.name,
    distance,
    gapDistance,
    averageSpeed,
    // from the track when the device reports no speed: its fastest leg, and never under the average
    // (which the odometer's distance, when it has one, may put above the legs measured by position)
    maxSpeed: iv.topFromTrack ? Math.max(iv.maxSpeed, averageSpeed) : iv.maxSpeed,
    spentFuel: spentFuel(start, end, device.attributes) ?? 0,
    ...odometers(start, end, t.ignoreOdometer),
    startTime: iso(start.time),
    endTime: iso(end.time),
    startPositionId: start.id,
    endPositionId: end.id,
    startLat: start.latitude,
    startLon: start.longitude,
    endLat: end.latitude,
    endLon: end.longitude,
    duration,
    ...withoutNulls({ driverUniqueId: start.driverUniqueId ?? end.driverUniqueId }),
  };
}

/** One device's trips from its fixes. */
export function tripsRun(device: ReportDevice, t: TripThresholds): DeviceRun<ReportFixRow, ReportTrip> {
  const track = fixTrack(t.speedThreshold, t.maxSpeed);
  const intervals = intervalBuilder('trips', t);
  return {
    push: (row) => intervals.push(track(row)).map((iv) => tripItem(device, iv, t)),
    finish: () => intervals.finish().map((iv) => tripItem(device, iv, t)),
  };
}

export const tripsTable: ReportTable<ReportTrip> = {
  name: 'trips',
  columns: [
    field('deviceName', 'text'),
    field('startTime', 'time'),
    field('endTime', 'time'),
    field('duration', 'duration'),
    field('distance', 'distance'),
    field('averageSpeed', 'speed'),
    field('maxSpeed', 'speed'),
    field('gapDistance', 'distance'),
    field('startAddress', 'text'),
    field('endAddress', 'text'),
    field('spentFuel', 'number'),
    field('driverName', 'text'),
    field('driverUniqueId', 'text'),
    field('startOdometer', 'distance'),
    field('endOdometer', 'distance'),
    field('startLat', 'coordinate'),
    field('startLon', 'coordinate'),
    field('endLat', 'coordinate'),
    field('endLon', 'coordinate'),
    field('deviceId', 'integer'),
    field('startPositionId', 'text'),
    field('endPositionId', 'text'),
  ],
};
