import type { RouteRow } from '../clickhouse/report-positions';
import type { ReportColumnKey } from '@corridor/contracts';
import type { CellKind, ReportTable } from './formats/table';
import { isoTimeFormatter } from './iso-time';

/** A route row (report-positions.ts) with the fix's address appended by the reports service (the offline geocoder). */
export type AddressedRouteRow = [...RouteRow, address: string | null];

const text = (v: string | null): string => (v === null ? 'null' : JSON.stringify(v));

/** Columns the topic carries beside attributes, by their index in the row and Traccar's attribute key (ingest mirrors them already). */
const MIRRORED: [index: 14 | 15 | 16 | 17 | 18 | 19 | 20, key: string][] = [
  [14, 'sat'],
  [15, 'hdop'],
  [16, 'ignition'],
  [17, 'odometer'],
  [18, 'power'],
  [19, 'battery'],
  [20, 'alarm'],
];

/**
 * The row's attributes as the API's Position has them (contracts apiAttributes), written onto the
 * stored JSON text: accuracy out (it is the top-level field), the mirrored columns a row lacks,
 * crcValid when false and rawFrameId in. A key is looked up as `"key":`, which a string value's
 * escaped quotes can never form. Only rows carrying accuracy are parsed.
 */
function routeAttributes(r: AddressedRouteRow): string {
  let json = r[23];
  if (json.includes('"accuracy":')) {
    const a = JSON.parse(json) as Record<string, unknown>;
    delete a.accuracy;
    json = JSON.stringify(a);
  }
  const extra: string[] = [];
  for (const [i, key] of MIRRORED) {
    const v = r[i];
    if (v !== null && !json.includes(`"${key}":`)) extra.push(`"${key}":${typeof v === 'string' ? JSON.stringify(v) : String(v)}`);
  }
  if (!r[21]) extra.push('"crcValid":false');
  if (r[22] !== null) extra.push(`"rawFrameId":${JSON.stringify(r[22])}`);
  if (!extra.length) return json;
  return json === '{}' ? `{${extra.join(',')}}` : `${json.slice(0, -1)},${extra.join(',')}}`;
}
const num = (v: number | null): string => (v !== null && Number.isFinite(v) ? `${v}` : 'null');

/**
 * The route report's rows (Traccar: Position[]) as read from ClickHouse, written without building
 * an object per position: JSON gives Traccar's Position as the API answers it (contracts apiPosition,
 * with its address; reports.test.ts compares the two), CSV and xlsx read the columns. The device's
 * name comes from the report's devices.
 */
export function routeTable(deviceNames: ReadonlyMap<number, string>): ReportTable<AddressedRouteRow> {
  const fixTime = isoTimeFormatter();
  const deviceTime = isoTimeFormatter();
  const serverTime = isoTimeFormatter();
  const col = (index: number, key: ReportColumnKey, kind: CellKind, label: ReportColumnKey = key) => ({
    key,
    label,
    kind,
    get: (r: AddressedRouteRow) => r[index],
  });
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
      `{"id":${r[3]},"deviceId":${r[0]},"protocol":${text(r[5])},"deviceTime":"${deviceTime(r[6])}","fixTime":"${fixTime(r[1])}",` +
      `"serverTime":"${serverTime(r[2])}","valid":${r[7]},"latitude":${num(r[8])},"longitude":${num(r[9])},"altitude":${num(r[12] ?? 0)},` +
      `"speed":${num(r[10])},"course":${num(r[11])},${r[24] === null ? '' : `"address":${text(r[24])},`}"accuracy":${num(r[13] ?? 0)},` +
      `"attributes":${routeAttributes(r)}}`,
  };
}
