import type { RouteRow } from '@corridor/platform/clickhouse/report-positions';
import type { ReportTable } from './formats/table';
import { isoTimeFormatter } from './iso-time';

/** A route row (report-positions.ts) with the fix's address appended by the reports service (the offline geocoder). */
export type AddressedRouteRow = [...RouteRow, address: string | null];

const text = (v: string | null): string => (v === null ? 'null' : JSON.stringify(v));
const num = (v: number | null): string => (v !== null && Number.isFinite(v) ? `${v}` : 'null');

/**
 * The route report's rows (Traccar: Position[]) as read from ClickHouse, written without building
 * an object per position: JSON gives exactly the text of the PositionMessage (same fields, order
 * and values, with its address; route.test.ts checks it against the zod-parsed message), CSV and
 * xlsx read the columns. The device's name comes from the report's devices.
 */
export function routeTable(deviceNames: ReadonlyMap<number, string>): ReportTable<AddressedRouteRow> {
  const fixTime = isoTimeFormatter();
  const deviceTime = isoTimeFormatter();
  const serverTime = isoTimeFormatter();
  const col = (index: number, key: string, label: string, kind: ReportTable<AddressedRouteRow>['columns'][number]['kind']) =>
    ({ key, label, kind, get: (r: AddressedRouteRow) => r[index] });
  return {
    name: 'route',
    columns: [
      col(0, 'deviceId', 'Device id', 'integer'),
      { key: 'deviceName', label: 'Device', kind: 'text', get: (r) => deviceNames.get(r[0]) ?? null },
      { key: 'fixTime', label: 'Fix time (UTC)', kind: 'time', get: (r) => fixTime(r[1]) },
      col(8, 'latitude', 'Latitude', 'number'),
      col(9, 'longitude', 'Longitude', 'number'),
      col(24, 'address', 'Address', 'text'),
      col(10, 'speed', 'Speed (kn)', 'number'),
      col(11, 'course', 'Course (°)', 'number'),
      col(12, 'altitude', 'Altitude (m)', 'number'),
      col(7, 'valid', 'Valid', 'boolean'),
      col(14, 'satellites', 'Satellites', 'integer'),
      col(15, 'hdop', 'HDOP', 'number'),
      col(16, 'ignition', 'Ignition', 'boolean'),
      col(17, 'odometer', 'Odometer (m)', 'number'),
      col(18, 'power', 'Power (V)', 'number'),
      col(19, 'battery', 'Battery', 'number'),
      col(20, 'alarm', 'Alarm', 'text'),
      col(5, 'protocol', 'Protocol', 'text'),
      { key: 'serverTime', label: 'Server time (UTC)', kind: 'time', get: (r) => serverTime(r[2]) },
      col(3, 'id', 'Position', 'integer'),
      col(23, 'attributes', 'Attributes', 'jsonText'),
    ],
    json: (r) =>
      `{"id":${r[3]},"deviceId":${r[0]},"uniqueId":${text(r[4])},"protocol":${text(r[5])},"fixTime":"${fixTime(r[1])}",` +
      `"deviceTime":"${deviceTime(r[6])}","serverTime":"${serverTime(r[2])}","valid":${r[7]},"latitude":${num(r[8])},` +
      `"longitude":${num(r[9])},"speed":${num(r[10])},"course":${num(r[11])},"altitude":${num(r[12])},"accuracy":${num(r[13])},` +
      `"satellites":${num(r[14])},"hdop":${num(r[15])},"ignition":${r[16]},"odometer":${num(r[17])},"power":${num(r[18])},` +
      `"battery":${num(r[19])},"alarm":${text(r[20])},"crcValid":${r[21]},"rawFrameId":${text(r[22])},"attributes":${r[23]},"address":${text(r[24])}}`,
  };
}
