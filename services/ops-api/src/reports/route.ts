import type { PositionMessage } from '@corridor/contracts';
import { field, type ReportTable } from './formats/table';

/** The route report's rows (Traccar: Position[]); the device's name comes from the report's devices. */
export function routeTable(deviceNames: ReadonlyMap<number, string>): ReportTable<PositionMessage> {
  return {
    name: 'route',
    columns: [
      field('deviceId', 'Device id', 'integer'),
      { key: 'deviceName', label: 'Device', kind: 'text', get: (p) => deviceNames.get(p.deviceId) ?? null },
      field('fixTime', 'Fix time (UTC)', 'time'),
      field('latitude', 'Latitude', 'number'),
      field('longitude', 'Longitude', 'number'),
      field('speed', 'Speed (kn)', 'number'),
      field('course', 'Course (°)', 'number'),
      field('altitude', 'Altitude (m)', 'number'),
      field('valid', 'Valid', 'boolean'),
      field('satellites', 'Satellites', 'integer'),
      field('hdop', 'HDOP', 'number'),
      field('ignition', 'Ignition', 'boolean'),
      field('odometer', 'Odometer (m)', 'number'),
      field('power', 'Power (V)', 'number'),
      field('battery', 'Battery', 'number'),
      field('alarm', 'Alarm', 'text'),
      field('protocol', 'Protocol', 'text'),
      field('serverTime', 'Server time (UTC)', 'time'),
      field('id', 'Position', 'text'),
      field('attributes', 'Attributes', 'json'),
    ],
  };
}
