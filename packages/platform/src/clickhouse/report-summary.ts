import type { Analytics } from '../adapters/analytics';
import { deviceWindows, pageRowsFor, queryRows } from './report-pages';
import { attributeSql, type ReportFixRow } from './report-positions';

/**
 * The summary report's sums, computed in ClickHouse: per device and calendar day, the first and the
 * last fix, the highest speed, the speeds in motion, the great-circle path (haversine, written as
 * geo-math's distanceMetres computes it, with the caller's Earth radius) and the ignition-on time
 * between consecutive fixes. Only these few rows per device and day leave the store, not the fixes.
 *
 * Each query covers a part of the report: on ClickHouse, all of it; on chDB (which holds a query's
 * working set in process), pages of devices of about `pageRows` × 3 rows, and a device with more
 * rows than that in pages of its fixes up to every so many rows' fix time, one part each. Parts of one device and day are merged by the
 * caller (mergeable: the leg between two parts joins them). Redelivered fixes (same device and fix
 * time) count once, with the values of their first arrival (the earliest server time), as
 * ReplacingMergeTree(arrival_rank) keeps them (positions.ts).
 */
export interface SummaryQuery {
  deviceIds: number[];
  from: Date;
  to: Date;
  /** Instants splitting the period into days, ascending; empty = one part per device. */
  boundaries: number[];
  /** knots: a fix without a `motion` attribute is in motion above this. */
  speedThreshold: number;
  /** Earth radius of the haversine path, metres (geo-math's EARTH_RADIUS_M). */
  radiusMetres: number;
  /** Per-device thresholds that differ from `speedThreshold`. */
  deviceSpeedThresholds?: ReadonlyMap<number, number>;
  /** Row reads per query (see report-pages.ts); a summary page is three of them. */
  pageRows?: number;
  signal?: AbortSignal;
}

/** A fix at either end of a part (its time in epoch ms). */
export type SummaryEnd = Pick<ReportFixRow, 'time' | 'latitude' | 'longitude' | 'ignition' | 'odometer' | 'hours' | 'fuelUsed' | 'fuel' | 'fuelLevel'>;

export interface SummaryPart {
  deviceId: number;
  /** Index of the day: how many boundaries lie at or before its fixes. */
  day: number;
  first: SummaryEnd;
  last: SummaryEnd;
  /** Distinct fixes. */
  fixes: number;
  /** knots */
  maxSpeed: number;
  movingSpeedSum: number;
  movingFixes: number;
  /** Great-circle legs between the part's consecutive fixes, metres. */
  path: number;
  /** Legs with ignition on at both ends, ms. */
  ignitionMs: number;
  /** Fixes carrying an ignition value. */
  ignitionFixes: number;
}

/**
 * Summary pages are this many times the row pages: the store returns only a few sums per device,
 * but sorts each page for its window functions (about 30 MiB for 60,000 rows on chDB).
 */
const SUMMARY_PAGE_FACTOR = 3;

const attribute = (key: string, type: string): string => attributeSql('attrs', key, type);

const END = `tuple(t, lat, lon, ign, odo, hours, fuel_used, fuel, fuel_level)`;
const RAD = 'pi() / 180';

/**
 * The sums over `fixes` (a subquery with device_id, fix_time, t (epoch ms), server_time and the
 * position columns), per device and day. Speeds are compared and summed as the decimals the store
 * prints (what a reader of the fixes would add up), not as the Float32 values.
 */
const sumsOver = (fixes: string): string => `
SELECT device_id, day, argMin(${END}, t), argMax(${END}, t), count(), max(spd),
       sumIf(spd64, moving), countIf(moving), sumIf(leg, prev_day = day), sumIf(ignition_ms, prev_day = day),
       countIf(ign IS NOT NULL)
FROM (
  SELECT device_id, t, day, spd, spd64, ign, lat, lon, odo,
         ${attribute('hours', 'Nullable(Float64)')} AS hours, ${attribute('fuelUsed', 'Nullable(Float64)')} AS fuel_used,
         ${attribute('fuel', 'Nullable(Float64)')} AS fuel, ${attribute('fuelLevel', 'Nullable(Float64)')} AS fuel_level,
         ifNull(${attribute('motion', 'Nullable(Bool)')},
                spd64 > transform(device_id, {thresholdIds:Array(UInt64)}, {thresholds:Array(Float64)}, {threshold:Float64})) AS moving,
         lagInFrame(lat, 1, nan) OVER w AS prev_lat, lagInFrame(lon, 1, nan) OVER w AS prev_lon,
         lagInFrame(t, 1, toInt64(0)) OVER w AS prev_t, lagInFrame(day, 1, toInt64(-1)) OVER w AS prev_day,
         lagInFrame(ign, 1, NULL) OVER w AS prev_ign,
         if(prev_ign = true AND ign = true, t - prev_t, 0) AS ignition_ms,
         (lat - prev_lat) * ${RAD} AS d_lat, (lon - prev_lon) * ${RAD} AS d_lon,
         sin(d_lat / 2) * sin(d_lat / 2) + cos(prev_lat * ${RAD}) * cos(lat * ${RAD}) * sin(d_lon / 2) * sin(d_lon / 2) AS h,
         2 * {radius:Float64} * asin(least(1, sqrt(h))) AS leg
  FROM (
    SELECT device_id, t, latitude AS lat, longitude AS lon, speed AS spd, toFloat64(toString(speed)) AS spd64,
           ignition AS ign, odometer AS odo, attributes AS attrs, toInt64(arrayCount(b -> b <= t, {boundaries:Array(Int64)})) AS day
    FROM (${fixes})
    ORDER BY device_id, fix_time, server_time
    LIMIT 1 BY device_id, fix_time
  )
  WINDOW w AS (PARTITION BY device_id ORDER BY t ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
)
GROUP BY device_id, day
ORDER BY device_id, day`;

const end = (v: unknown): SummaryEnd => {
  const [time, latitude, longitude, ignition, odometer, hours, fuelUsed, fuel, fuelLevel] = v as unknown[];
  return {
    time: Number(time), latitude: latitude as number, longitude: longitude as number, ignition: ignition === null ? null : Boolean(ignition),
    odometer: odometer as number | null, hours: hours as number | null, fuelUsed: fuelUsed as number | null, fuel: fuel as number | null,
    fuelLevel: fuelLevel as number | null,
  };
};

/** The parts of the summary, devices in id order, days in order, a device's pages in time order. */
export function streamSummaryParts(ch: Analytics) {
  return async function* (q: SummaryQuery): AsyncGenerator<SummaryPart[]> {
    if (!q.deviceIds.length) return;
    const ids = [...new Set(q.deviceIds)].sort((a, b) => a - b);
    const own = [...(q.deviceSpeedThresholds ?? new Map<number, number>())];
    const source = {
      sql: `FROM ${ch.database}.positions WHERE device_id IN {ids:Array(UInt64)}
              AND fix_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND fix_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')`,
      params: {
        from: q.from.getTime(), to: q.to.getTime(), boundaries: q.boundaries, threshold: q.speedThreshold, radius: q.radiusMetres,
        thresholdIds: own.map(([id]) => id), thresholds: own.map(([, t]) => t),
      },
    };
    const columns = `device_id, fix_time, toUnixTimestamp64Milli(fix_time) AS t, server_time, latitude, longitude, speed, ignition, odometer, attributes`;

    /** The parts of the fixes of `ids` (after `after` and up to `until`, epoch ms, when given). */
    async function* parts(ids: number[], after?: number, until?: number): AsyncGenerator<SummaryPart[]> {
      const out: SummaryPart[] = [];
      const fixes = `SELECT ${columns} ${source.sql}
        ${after === undefined ? '' : `AND fix_time > fromUnixTimestamp64Milli({after:Int64}, 'UTC')`}
        ${until === undefined ? '' : `AND fix_time <= fromUnixTimestamp64Milli({until:Int64}, 'UTC')`}`;
      for await (const r of queryRows(ch, sumsOver(fixes), { ...source.params, ids, after, until }, q.signal)) {
        out.push({
          deviceId: Number(r[0]), day: Number(r[1]), first: end(r[2]), last: end(r[3]), fixes: Number(r[4]), maxSpeed: Math.max(0, r[5] as number),
          movingSpeedSum: r[6] as number, movingFixes: Number(r[7]), path: r[8] as number, ignitionMs: Number(r[9]), ignitionFixes: Number(r[10]),
        });
      }
      if (out.length) yield out;
    }

    const pageRows = pageRowsFor(ch, q.pageRows) * SUMMARY_PAGE_FACTOR;
    const plan = Number.isFinite(pageRows) ? await deviceWindows(ch, source, ids, pageRows, q.signal) : [{ ids, alone: false }];
    for (const w of plan) {
      if (!w.alone) {
        yield* parts(w.ids);
        continue;
      }
      // a device with more rows than a page: pages up to the fix time of every pageRows-th row (its duplicates included)
      for (let after: number | undefined; ;) {
        let until: number | undefined;
        const edge = queryRows(ch, `SELECT toUnixTimestamp64Milli(fix_time) ${source.sql}
            ${after === undefined ? '' : `AND fix_time > fromUnixTimestamp64Milli({after:Int64}, 'UTC')`}
            ORDER BY device_id, fix_time LIMIT 1 OFFSET {offset:UInt64}`, { ...source.params, ids: w.ids, after, offset: pageRows - 1 }, q.signal);
        for await (const [t] of edge) until = Number(t);
        yield* parts(w.ids, after, until);
        if (until === undefined) break;
        after = until;
      }
    }
  };
}
