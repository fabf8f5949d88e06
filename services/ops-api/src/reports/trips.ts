import type { ReportTrip } from '@corridor/contracts';
import type { ReportFixRow } from '@corridor/platform/clickhouse/report-positions';
import type { DeviceRun } from './device-runs';
import { fixTrack } from './fixes';
import { intervalBuilder, type Interval } from './intervals';
import { averageKnots, distanceBetween, iso, odometers, spentFuel } from './measures';
import type { ReportDevice } from './report-devices';
import { field, type ReportTable } from './formats/table';
import type { TripThresholds } from './settings';

/** A trip as Traccar's TripReportItem (driverName is filled in afterwards from the drivers). */
export function tripItem(device: ReportDevice, iv: Interval, t: TripThresholds): ReportTrip {
  const { start, end } = iv;
  const distance = distanceBetween(start, end, t.ignoreOdometer);
  const duration = end.time - start.time;
  return {
    deviceId: device.id, deviceName: device.name, distance,
    averageSpeed: averageKnots(distance, duration), maxSpeed: iv.maxSpeed,
    spentFuel: spentFuel(start, end, device.attributes), ...odometers(start, end, t.ignoreOdometer),
    startTime: iso(start.time), endTime: iso(end.time), startPositionId: start.id, endPositionId: end.id,
    startLat: start.latitude, startLon: start.longitude, endLat: end.latitude, endLon: end.longitude,
    startAddress: null, endAddress: null, duration,
    driverUniqueId: start.driverUniqueId ?? end.driverUniqueId, driverName: null,
  };
}

/** One device's trips from its fixes. */
export function tripsRun(device: ReportDevice, t: TripThresholds): DeviceRun<ReportFixRow, ReportTrip> {
  const track = fixTrack(t.speedThreshold);
  const intervals = intervalBuilder('trips', t);
  return {
    push: (row) => intervals.push(track(row)).map((iv) => tripItem(device, iv, t)),
    finish: () => intervals.finish().map((iv) => tripItem(device, iv, t)),
  };
}

export const tripsTable: ReportTable<ReportTrip> = {
  name: 'trips',
  columns: [
    field('deviceId', 'Device id', 'integer'),
    field('deviceName', 'Device', 'text'),
    field('startTime', 'Start (UTC)', 'time'),
    field('startLat', 'Start latitude', 'number'),
    field('startLon', 'Start longitude', 'number'),
    field('startAddress', 'Start address', 'text'),
    field('startOdometer', 'Start odometer (m)', 'number'),
    field('endTime', 'End (UTC)', 'time'),
    field('endLat', 'End latitude', 'number'),
    field('endLon', 'End longitude', 'number'),
    field('endAddress', 'End address', 'text'),
    field('endOdometer', 'End odometer (m)', 'number'),
    field('distance', 'Distance (m)', 'number'),
    field('duration', 'Duration', 'duration'),
    field('averageSpeed', 'Average speed (kn)', 'number'),
    field('maxSpeed', 'Max speed (kn)', 'number'),
    field('spentFuel', 'Spent fuel (l)', 'number'),
    field('driverUniqueId', 'Driver id', 'text'),
    field('driverName', 'Driver', 'text'),
    field('startPositionId', 'Start position', 'text'),
    field('endPositionId', 'End position', 'text'),
  ],
};
