import type { Analytics } from '@corridor/platform';
import { deviceRows, pageRowsFor, queryRows, type DeviceRowsRead } from './report-pages';

/**
 * Positions for reports, in (device id, fix time) order without holding a period in memory (see
 * report-pages.ts: one streamed query on ClickHouse, pages of a few devices on chDB, small batches).
 *
 * No FINAL: a redelivered fix is a second row with the same (device_id, fix_time, id); the reader keeps
 * the one with the earliest server time, the row ReplacingMergeTree(arrival_rank) keeps.
 */
export interface ReportPositionsQuery {
  deviceIds: number[];
  from: Date;
  to: Date;
  /** Rows per query; default: unbounded on ClickHouse (one streamed query), 20,000 on chDB. */
  pageRows?: number;
  /** Rows per yielded batch (default 1,000). */
  batchRows?: number;
  /** Aborting stops the read: the query in flight is cancelled and no further page is asked for. */
  signal?: AbortSignal;
}

/** The fields trip, stop and summary reports read, typed (attributes extracted in ClickHouse). */
export interface ReportFixRow {
  deviceId: number;
  id: number;
  /** Fix time, epoch milliseconds. */
  time: number;
  latitude: number;
  longitude: number;
  /** knots */
  speed: number;
  valid: boolean;
  ignition: boolean | null;
  /** Device odometer, metres. */
  odometer: number | null;
  /** Attribute `hours`: engine hours reported by the device, milliseconds. */
  hours: number | null;
  /** Attribute `fuelUsed`: litres consumed (counter). */
  fuelUsed: number | null;
  /** Attribute `fuel`: litres in the tank. */
  fuel: number | null;
  /** Attribute `fuelLevel`: percent of the tank. */
  fuelLevel: number | null;
  driverUniqueId: string | null;
  /** Attribute `motion` when the device reports it. */
  motion: boolean | null;
}

interface Cursor {
  deviceId: number;
  time: number;
  id: number;
}

/** `FROM … WHERE …` for the positions of the devices bound as {ids:Array(UInt64)} over the period. */
export const positionsSource = (ch: Analytics, q: { from: Date; to: Date }): { sql: string; params: Record<string, unknown> } => ({
  sql: `FROM ${ch.database}.positions WHERE device_id IN {ids:Array(UInt64)}
    AND fix_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND fix_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')`,
  params: { from: q.from.getTime(), to: q.to.getTime() },
});

/** The rows after a key in the sort key (device_id, fix_time, id), as SQL. */
export const afterKeySql = `AND (fix_time, id) > (fromUnixTimestamp64Milli({afterTime:Int64}, 'UTC'), {afterId:UInt64})`;

/**
 * A read of the positions of some devices over a period: `columns` start with device_id, fix time and
 * server time (epoch ms) and id. The sort key is (device_id, fix_time, id): a state record and a fix
 * of the same second are two rows.
 */
function positionsRead(ch: Analytics, q: ReportPositionsQuery, columns: string): DeviceRowsRead<Cursor> {
  return {
    columns,
    source: positionsSource(ch, q),
    after: (k) => ({ sql: afterKeySql, params: { afterTime: k.time, afterId: k.id } }),
    orderBy: 'device_id, fix_time, id',
    keyOf: (r) => ({ deviceId: Number(r[0]), time: Number(r[1]), id: Number(r[3]) }),
    sameKey: (a, b) => a.deviceId === b.deviceId && a.time === b.time && a.id === b.id,
    // the first arrival of a position is the row ReplacingMergeTree(arrival_rank) keeps (positions.ts)
    newer: (a, b) => Number(b[2]) < Number(a[2]),
  };
}

const KEY_COLUMNS = `device_id, toUnixTimestamp64Milli(fix_time), toUnixTimestamp64Milli(server_time)`;

/**
 * SQL for an attribute of a stored attributes JSON, as JSONExtract reads it; the JSON is parsed
 * only when the key's text occurs in it (insertPositions writes it with JSON.stringify, which never
 * escapes a key's letters, so no occurrence means no key: NULL either way).
 */
export const attributeSql = (column: string, key: string, type: string): string =>
  `if(position(${column}, '"${key}"') > 0, JSONExtract(${column}, '${key}', '${type}'), NULL)`;
const attribute = (key: string, type: string): string => attributeSql('attributes', key, type);

const FIX_COLUMNS = `${KEY_COLUMNS}, id, latitude, longitude, speed, valid, ignition, odometer,
  ${attribute('hours', 'Nullable(Float64)')}, ${attribute('fuelUsed', 'Nullable(Float64)')}, ${attribute('fuel', 'Nullable(Float64)')},
  ${attribute('fuelLevel', 'Nullable(Float64)')}, ${attribute('driverUniqueId', 'Nullable(String)')}, ${attribute('motion', 'Nullable(Bool)')}`;

const optBool = (v: unknown): boolean | null => (v === null ? null : Boolean(v));

/**
 * A FIX_COLUMNS tuple as a report row. The one place a stored position's id becomes a report's
 * position id (trips' start/endPositionId, stops' positionId).
 */
function fixRowOf(r: unknown[]): ReportFixRow {
  return {
    deviceId: Number(r[0]),
    id: Number(r[3]),
    time: Number(r[1]),
    latitude: r[4] as number,
    longitude: r[5] as number,
    speed: r[6] as number,
    valid: Boolean(r[7]),
    ignition: optBool(r[8]),
    odometer: r[9] as number | null,
    hours: r[10] as number | null,
    fuelUsed: r[11] as number | null,
    fuel: r[12] as number | null,
    fuelLevel: r[13] as number | null,
    driverUniqueId: r[14] as string | null,
    motion: optBool(r[15]),
  };
}

/** The fix stream trips and stops run on when read whole, oldest first per device, devices in id order, in batches. */
export function streamReportFixes(ch: Analytics) {
  return async function* (q: ReportPositionsQuery): AsyncGenerator<ReportFixRow[]> {
    const rows = deviceRows(ch, positionsRead(ch, q, FIX_COLUMNS), q.deviceIds, {
      pageRows: pageRowsFor(ch, q.pageRows),
      batchRows: q.batchRows,
      signal: q.signal,
    });
    for await (const batch of rows) yield batch.map(fixRowOf);
  };
}

/** A stored position by its key: the device, its fix time (epoch ms) and its id. */
export interface FixKey {
  deviceId: number;
  time: number;
  id: number;
}

/** The map key of queryFixesAt's answer. */
export const fixKey = (k: FixKey): string => `${k.deviceId}@${k.time}#${k.id}`;

/** What the store holds of a fix beyond what the lean track carries (report-track.ts): the fields report items show. */
export type StoredFields = Pick<ReportFixRow, 'valid' | 'odometer' | 'hours' | 'fuelUsed' | 'fuel' | 'fuelLevel' | 'driverUniqueId'>;

const STORED_COLUMNS = `${KEY_COLUMNS}, id, valid, odometer,
  ${attribute('hours', 'Nullable(Float64)')}, ${attribute('fuelUsed', 'Nullable(Float64)')}, ${attribute('fuel', 'Nullable(Float64)')},
  ${attribute('fuelLevel', 'Nullable(Float64)')}, ${attribute('driverUniqueId', 'Nullable(String)')}`;

/** A STORED_COLUMNS tuple: the same values as fixRowOf reads of these columns. */
const storedOf = (r: unknown[]): StoredFields => ({
  valid: Boolean(r[4]),
  odometer: r[5] as number | null,
  hours: r[6] as number | null,
  fuelUsed: r[7] as number | null,
  fuel: r[8] as number | null,
  fuelLevel: r[9] as number | null,
  driverUniqueId: r[10] as string | null,
});

/**
 * The rows of the positions at these keys (the fixes a report's items begin and end at) in the
 * given columns (starting with KEY_COLUMNS and id), keyed by fixKey; a redelivered one is the row
 * with the earliest server time (its first arrival), as in streamReportFixes. The keys' devices and
 * fix times select the rows through the table's sort key.
 */
function rowsAt<R>(ch: Analytics, columns: string, rowOf: (r: unknown[]) => R) {
  return async (keys: FixKey[], signal?: AbortSignal): Promise<Map<string, R>> => {
    const out = new Map<string, R>();
    if (!keys.length) return out;
    const wanted = new Set(keys.map(fixKey));
    const first = new Map<string, number>();
    const rows = queryRows(
      ch,
      `SELECT ${columns} FROM ${ch.database}.positions
      WHERE device_id IN {ids:Array(UInt64)} AND fix_time IN (SELECT fromUnixTimestamp64Milli(arrayJoin({times:Array(Int64)}), 'UTC'))`,
      { ids: [...new Set(keys.map((k) => k.deviceId))], times: [...new Set(keys.map((k) => k.time))] },
      signal,
    );
    for await (const r of rows) {
      const key = fixKey({ deviceId: Number(r[0]), time: Number(r[1]), id: Number(r[3]) });
      if (!wanted.has(key) || (first.has(key) && Number(r[2]) >= first.get(key)!)) continue;
      first.set(key, Number(r[2]));
      out.set(key, rowOf(r));
    }
    return out;
  };
}

/** The report rows of the positions at these keys (rowsAt), every field. */
export const queryFixesAt = (ch: Analytics) => rowsAt(ch, FIX_COLUMNS, fixRowOf);

/**
 * Only the stored fields of the positions at these keys (rowsAt): for fixes of the lean track, which
 * has the rest. Reading fewer columns is most of what such a lookup costs: a device-day is a third of a
 * granule, so the few rows asked for per device re-read all of its rows of the columns named.
 */
export const queryStoredAt = (ch: Analytics) => rowsAt(ch, STORED_COLUMNS, storedOf);

const ROUTE_COLUMNS = `${KEY_COLUMNS}, id, unique_id, protocol, toUnixTimestamp64Milli(device_time), valid, latitude, longitude, speed,
  course, altitude, accuracy, satellites, hdop, ignition, odometer, power, battery, alarm, crc_valid, raw_frame_id, attributes`;

/**
 * A stored position as the route report reads it: a tuple in ROUTE_COLUMNS order, times in epoch
 * milliseconds, attributes as their stored JSON text (written by insertPositions with
 * JSON.stringify, so it is the text a re-serialization would give). Rows were validated when they
 * were written; a route report reads millions, so they are not turned into objects.
 */
export type RouteRow = [
  deviceId: number,
  fixTime: number,
  serverTime: number,
  id: number,
  uniqueId: string,
  protocol: string,
  deviceTime: number,
  valid: boolean,
  latitude: number,
  longitude: number,
  speed: number,
  course: number,
  altitude: number | null,
  accuracy: number | null,
  satellites: number | null,
  hdop: number | null,
  ignition: boolean | null,
  odometer: number | null,
  power: number | null,
  battery: number | null,
  alarm: string | null,
  crcValid: boolean,
  rawFrameId: string | null,
  attributes: string,
];

/** Normalizes a JSONCompactEachRow tuple in place (64-bit integers come quoted, Bool as true/false). */
function routeRow(r: unknown[]): RouteRow {
  r[0] = Number(r[0]);
  r[1] = Number(r[1]);
  r[2] = Number(r[2]);
  r[3] = Number(r[3]);
  r[6] = Number(r[6]);
  r[7] = Boolean(r[7]);
  r[16] = optBool(r[16]);
  r[21] = Boolean(r[21]);
  return r as RouteRow;
}

/** The route report's positions, oldest first per device, devices in id order, in batches. */
export function streamRouteRows(ch: Analytics) {
  return async function* (q: ReportPositionsQuery): AsyncGenerator<RouteRow[]> {
    const rows = deviceRows(ch, positionsRead(ch, q, ROUTE_COLUMNS), q.deviceIds, {
      pageRows: pageRowsFor(ch, q.pageRows),
      batchRows: q.batchRows,
      signal: q.signal,
    });
    for await (const batch of rows) yield batch.map(routeRow);
  };
}
