import type { RouteRow } from '@corridor/platform/clickhouse/report-positions';
import type { ReportColumnKey } from '@corridor/contracts';
import type { CellKind, ReportTable } from './formats/table';
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
  const col = (index: number, key: ReportColumnKey, kind: CellKind, label: ReportColumnKey = key) => ({ key, label, kind, get: (r: AddressedRouteRow) => r[index] });
  return {
    name: 'route',
    columns: [
      { key: 'deviceName', label: 'deviceName', kind: 'text', get: (r) => deviceNames.get(r[0]) ?? null },
      col(1, 'fixTime', 'time'),
      col(24, 'address', 'text'),
      col(8, 'latitude', 'coordinate'),
      col(9, 'longitude', 'coordinate'),
      col(10, 'speed', 'speed'),
      col(11, 'course', 'number'),
      col(12, 'altitude', 'number'),
      col(7, 'valid', 'boolean'),
      col(14, 'satellites', 'integer'),
      col(15, 'hdop', 'number'),
      col(16, 'ignition', 'boolean'),
      col(17, 'odometer', 'distance'),
      col(18, 'power', 'number'),
      col(19, 'battery', 'number'),
      col(20, 'alarm', 'text'),
      col(5, 'protocol', 'text'),
      col(2, 'serverTime', 'time'),
      col(0, 'deviceId', 'integer'),
      col(3, 'positionId', 'integer'),
      col(23, 'attributes', 'jsonText'),
    ],
    json: (r) =>
      `{"id":${r[3]},"deviceId":${r[0]},"uniqueId":${text(r[4])},"protocol":${text(r[5])},"fixTime":"${fixTime(r[1])}",` +
      `"deviceTime":"${deviceTime(r[6])}","serverTime":"${serverTime(r[2])}","valid":${r[7]},"latitude":${num(r[8])},` +
      `"longitude":${num(r[9])},"speed":${num(r[10])},"course":${num(r[11])},"altitude":${num(r[12])},"accuracy":${num(r[13])},` +
      `"satellites":${num(r[14])},"hdop":${num(r[15])},"ignition":${r[16]},"odometer":${num(r[17])},"power":${num(r[18])},` +
      `"battery":${num(r[19])},"alarm":${text(r[20])},"crcValid":${r[21]},"rawFrameId":${text(r[22])},"attributes":${r[23]},"address":${text(r[24])}}`,
  };
}
