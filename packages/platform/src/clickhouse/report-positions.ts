import type { PositionMessage } from '@corridor/contracts';
import type { Analytics } from '../adapters/analytics';
import { positionFromRow, type PositionStoreRow } from './positions';

/**
 * Positions for reports, read in (device id, fix time) order without holding a period in memory:
 * each query is read through @clickhouse/client's stream API, and the period is walked in keyset
 * pages ((device_id, fix_time) after the last row read). Real ClickHouse streams a whole period in
 * one query; chDB buffers each answer in process, so there the pages bound the memory.
 *
 * No FINAL: a redelivered fix is a second row with the same (device_id, fix_time); ordering by
 * server_time DESC puts the row ReplacingMergeTree would keep first, and the reader drops the rest.
 */
export interface ReportPositionsQuery {
  deviceIds: number[];
  from: Date;
  to: Date;
  /** Rows per query; default: unbounded on ClickHouse (one streamed query), 50,000 on chDB. */
  pageRows?: number;
}

/** The fields trip, stop and summary reports read, typed (attributes extracted in ClickHouse). */
export interface ReportFixRow {
  deviceId: number;
  id: string;
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

export const DEFAULT_CHDB_PAGE_ROWS = 50_000;

const pageRowsFor = (ch: Analytics, asked?: number): number => asked ?? (ch.kind === 'chdb' ? DEFAULT_CHDB_PAGE_ROWS : Infinity);

interface Cursor { deviceId: number; time: number }

const PERIOD = `device_id IN {ids:Array(UInt64)}
  AND fix_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND fix_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')`;
const AFTER = `AND (device_id > {afterDevice:UInt64}
  OR (device_id = {afterDevice:UInt64} AND fix_time > fromUnixTimestamp64Milli({afterTime:Int64}, 'UTC')))`;

/**
 * Walks `select` page by page: each page is one streamed query; `keyOf` gives a row's (device, fix
 * time) so duplicates are dropped and the next page starts after the last row. Yields the rows of
 * each streamed chunk as one batch (per-row async steps would dominate a month of fixes).
 */
async function* pagedRows<R>(
  ch: Analytics,
  q: ReportPositionsQuery,
  opts: { select: string; format: 'JSONEachRow' | 'JSONCompactEachRow'; keyOf: (row: R) => Cursor },
): AsyncGenerator<R[]> {
  if (!q.deviceIds.length) return;
  const pageRows = pageRowsFor(ch, q.pageRows);
  let after: Cursor | undefined;
  for (;;) {
    const rs = await ch.client.query({
      query: `SELECT ${opts.select} FROM ${ch.database}.positions WHERE ${PERIOD} ${after ? AFTER : ''}
              ORDER BY device_id, fix_time, server_time DESC ${Number.isFinite(pageRows) ? 'LIMIT {pageRows:UInt32}' : ''}`,
      query_params: {
        ids: q.deviceIds, from: q.from.getTime(), to: q.to.getTime(),
        ...(after ? { afterDevice: after.deviceId, afterTime: after.time } : {}),
        ...(Number.isFinite(pageRows) ? { pageRows } : {}),
      },
      format: opts.format,
    });
    let read = 0;
    let last: Cursor | undefined = after;
    for await (const rows of rs.stream()) {
      const batch: R[] = [];
      for (const raw of rows) {
        read++;
        const row = raw.json<R>();
        const key = opts.keyOf(row);
        if (last && key.deviceId === last.deviceId && key.time === last.time) continue; // a redelivered duplicate
        last = key;
        batch.push(row);
      }
      if (batch.length) yield batch;
    }
    if (read < pageRows || !last) return;
    after = last;
  }
}

type FixTuple = [
  number | string, string, number | string, number, number, number, boolean | number, boolean | number | null, number | null,
  number | null, number | null, number | null, number | null, string | null, boolean | number | null,
];

const FIX_COLUMNS = `device_id, id, toUnixTimestamp64Milli(fix_time), latitude, longitude, speed, valid, ignition, odometer,
  JSONExtract(attributes, 'hours', 'Nullable(Float64)'), JSONExtract(attributes, 'fuelUsed', 'Nullable(Float64)'),
  JSONExtract(attributes, 'fuel', 'Nullable(Float64)'), JSONExtract(attributes, 'fuelLevel', 'Nullable(Float64)'),
  JSONExtract(attributes, 'driverUniqueId', 'Nullable(String)'), JSONExtract(attributes, 'motion', 'Nullable(Bool)')`;

const optBool = (v: boolean | number | null): boolean | null => (v === null ? null : Boolean(v));

/** The lean fix stream trips, stops and summary run on, oldest first per device, devices in id order, in batches. */
export function streamReportFixes(ch: Analytics) {
  return async function* (q: ReportPositionsQuery): AsyncGenerator<ReportFixRow[]> {
    const rows = pagedRows<FixTuple>(ch, q, {
      select: FIX_COLUMNS,
      format: 'JSONCompactEachRow',
      keyOf: (r) => ({ deviceId: Number(r[0]), time: Number(r[2]) }),
    });
    for await (const batch of rows) {
      yield batch.map((r) => ({
        deviceId: Number(r[0]), id: r[1], time: Number(r[2]), latitude: r[3], longitude: r[4], speed: r[5], valid: Boolean(r[6]),
        ignition: optBool(r[7]), odometer: r[8], hours: r[9], fuelUsed: r[10], fuel: r[11], fuelLevel: r[12],
        driverUniqueId: r[13], motion: optBool(r[14]),
      }));
    }
  };
}

/** Whole positions (the route report), oldest first per device, devices in id order, in batches. */
export function streamPositions(ch: Analytics) {
  return async function* (q: ReportPositionsQuery): AsyncGenerator<PositionMessage[]> {
    const rows = pagedRows<PositionStoreRow & { t: number | string }>(ch, q, {
      select: '*, toUnixTimestamp64Milli(fix_time) AS t',
      format: 'JSONEachRow',
      keyOf: (r) => ({ deviceId: Number(r.device_id), time: Number(r.t) }),
    });
    for await (const batch of rows) yield batch.map(positionFromRow);
  };
}
