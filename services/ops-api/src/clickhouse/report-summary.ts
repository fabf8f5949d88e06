import { POSITION_ID_DEVICE_BITS } from '@corridor/contracts';
import type { Analytics } from '@corridor/platform';
import { jumpSql, mpsOfKnots } from './report-jumps';
import { deviceWindows, pageRowsFor, queryRows } from './report-pages';
import { attributeSql, type ReportFixRow } from './report-positions';

/**
 * The summary report's sums, computed in ClickHouse: per device and calendar day, the first and the
 * last fix, the highest speed, the speeds in motion, the great-circle path (haversine, written as
 * geo-math's distanceMetres computes it, with the caller's Earth radius) but its jumps
 * (report-jumps.ts), which are summed apart, and the ignition-on time between consecutive fixes. Only these few rows per device and day leave the store, not the fixes.
 *
 * Each query covers a part of the report: on ClickHouse, all of it; on chDB (which holds a query's
 * working set in process), pages of devices of about `pageRows` × 3 rows, and a device with more
 * rows than that in pages of its fixes up to every so many rows' fix time, one part each. Parts of one device and day are merged by the
 * caller (mergeable: the leg between two parts' located instants joins them). Redelivered positions
 * (same id) count once, with the values of their first arrival (the earliest server time), as
 * ReplacingMergeTree(arrival_rank) keeps them (positions.ts); a status-only record and a fix of the
 * same second are two positions, merged into one instant here (see sumsOver).
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
  /** knots: the highest plausible speed; longer legs are jumps, not driven (report-jumps.ts). */
  maxSpeed: number;
  /** Per-device thresholds that differ from `speedThreshold`. */
  deviceSpeedThresholds?: ReadonlyMap<number, number>;
  /** Row reads per query (see report-pages.ts); a summary page is three of them. */
  pageRows?: number;
  signal?: AbortSignal;
}

/** The instant at either end of a part (its time in epoch ms): a fix, a status-only record, or both of one second merged. */
export type SummaryEnd = Pick<ReportFixRow, 'time' | 'ignition' | 'odometer' | 'hours' | 'fuelUsed' | 'fuel' | 'fuelLevel'>;

/** Where and when a part's first or last located instant (one with a fix) is, and its speed (the jump rule reads it). */
export type SummaryPlace = Pick<ReportFixRow, 'latitude' | 'longitude' | 'time' | 'speed'>;

export interface SummaryPart {
  deviceId: number;
  /** Index of the day: how many boundaries lie at or before its fixes. */
  day: number;
  first: SummaryEnd;
  last: SummaryEnd;
  /** Distinct instants (seconds with a fix, a status-only record or both). */
  fixes: number;
  /** The first and the last located instant; null when the part has only status-only records. */
  firstPlace: SummaryPlace | null;
  lastPlace: SummaryPlace | null;
  /** knots */
  maxSpeed: number;
  movingSpeedSum: number;
  movingFixes: number;
  /** Great-circle legs between the part's consecutive located instants of the same day, metres, but jumps (report-jumps.ts). */
  path: number;
  /** The jumps among those legs, metres. */
  gap: number;
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

const attribute = (key: string, type: string): string => attributeSql('attributes', key, type);

const END = `tuple(t, ign, odo, hours, fuel_used, fuel, fuel_level)`;
const RAD = 'pi() / 180';
/** A position id's kind bit (position-id.ts): 1 for a status-only record. */
const STATE_RECORD = `bitAnd(intDiv(id, ${2 ** POSITION_ID_DEVICE_BITS}), 1) = 1`;
/** The record's value when it has one, else the fix's (of one device and second). */
const merged = (column: string): string => `coalesce(anyIf(${column}, st), anyIf(${column}, NOT st))`;

/**
 * The sums over `fixes` (a subquery with device_id, id, fix_time, t (epoch ms), server_time and the
 * position columns), per device and day. Speeds are compared and summed as the decimals the store
 * prints (what a reader of the fixes would add up), not as the Float32 values.
 *
 * A status-only record (a state record: valid = false, outdated, at the last location ingest knew,
 * or at (0, 0) before any fix) is not a fix: it moves nothing and its speed is not a speed. Each
 * second of a device is one instant: its location, speed and motion from the fix of that second if
 * there is one, its ignition and counters (odometer, hours, fuel) from the record of that second
 * where it carries them, else from the fix. The path joins consecutive located instants only.
 */
const sumsOver = (fixes: string): string => `
SELECT device_id, day, argMin(${END}, t), argMax(${END}, t), count(), max(spd),
       sumIf(spd64, moving), countIf(moving), sum(leg), sumIf(ignition_ms, prev_day = day),
       countIf(ign IS NOT NULL), argMinIf(tuple(lat, lon, t, spd64), t, located), argMaxIf(tuple(lat, lon, t, spd64), t, located), countIf(located), sum(jumped)
FROM (
  SELECT device_id, t, day, located, spd, spd64, ign, lat, lon, odo, hours, fuel_used, fuel, fuel_level, moving,
         lagInFrame(t, 1, toInt64(0)) OVER w AS prev_t, lagInFrame(day, 1, toInt64(-1)) OVER w AS prev_day,
         lagInFrame(ign, 1, NULL) OVER w AS prev_ign,
         if(prev_ign = true AND ign = true, t - prev_t, 0) AS ignition_ms,
         -- the last located instant before this one (anyLast skips the NULLs of the others)
         ifNull(anyLast(if(located, lat, NULL)) OVER seen, nan) AS prev_lat, ifNull(anyLast(if(located, lon, NULL)) OVER seen, nan) AS prev_lon,
         ifNull(anyLast(if(located, day, NULL)) OVER seen, toInt64(-1)) AS prev_fix_day,
         ifNull(anyLast(if(located, t, NULL)) OVER seen, toInt64(0)) AS prev_fix_t,
         ifNull(anyLast(if(located, spd64, NULL)) OVER seen, toFloat64(0)) AS prev_fix_spd,
         (lat - prev_lat) * ${RAD} AS d_lat, (lon - prev_lon) * ${RAD} AS d_lon,
         sin(d_lat / 2) * sin(d_lat / 2) + cos(prev_lat * ${RAD}) * cos(lat * ${RAD}) * sin(d_lon / 2) * sin(d_lon / 2) AS h,
         if(located AND prev_fix_day = day, 2 * {radius:Float64} * asin(least(1, sqrt(h))), 0) AS raw_leg,
         ${jumpSql('raw_leg', 't - prev_fix_t', 'prev_fix_spd', 'spd64')} AS jump,
         if(jump, toFloat64(0), raw_leg) AS leg, if(jump, raw_leg, toFloat64(0)) AS jumped
  FROM (
    SELECT device_id, t, any(day) AS day, max(NOT st) AS located,
           anyIf(latitude, NOT st) AS lat, anyIf(longitude, NOT st) AS lon, anyIf(speed, NOT st) AS spd, anyIf(spd_text, NOT st) AS spd64,
           ${merged('ignition')} AS ign, ${merged('odometer')} AS odo, ${merged('a_hours')} AS hours, ${merged('a_fuel_used')} AS fuel_used,
           ${merged('a_fuel')} AS fuel, ${merged('a_fuel_level')} AS fuel_level,
           located AND ifNull(anyIf(a_motion, NOT st),
                spd64 > transform(device_id, {thresholdIds:Array(UInt64)}, {thresholds:Array(Float64)}, {threshold:Float64})) AS moving
    FROM (
      SELECT device_id, t, latitude, longitude, speed, toFloat64(toString(speed)) AS spd_text, ignition, odometer, ${STATE_RECORD} AS st,
             ${attribute('hours', 'Nullable(Float64)')} AS a_hours, ${attribute('fuelUsed', 'Nullable(Float64)')} AS a_fuel_used,
             ${attribute('fuel', 'Nullable(Float64)')} AS a_fuel, ${attribute('fuelLevel', 'Nullable(Float64)')} AS a_fuel_level,
             ${attribute('motion', 'Nullable(Bool)')} AS a_motion, toInt64(arrayCount(b -> b <= t, {boundaries:Array(Int64)})) AS day
      FROM (${fixes})
      ORDER BY device_id, fix_time, id, server_time
      LIMIT 1 BY device_id, fix_time, id
    )
    GROUP BY device_id, t
  )
  WINDOW w AS (PARTITION BY device_id ORDER BY t ROWS BETWEEN 1 PRECEDING AND CURRENT ROW),
         seen AS (PARTITION BY device_id ORDER BY t ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
)
GROUP BY device_id, day
ORDER BY device_id, day`;

const end = (v: unknown): SummaryEnd => {
  const [time, ignition, odometer, hours, fuelUsed, fuel, fuelLevel] = v as unknown[];
  return {
    time: Number(time),
    ignition: ignition === null ? null : Boolean(ignition),
    odometer: odometer as number | null,
    hours: hours as number | null,
    fuelUsed: fuelUsed as number | null,
    fuel: fuel as number | null,
    fuelLevel: fuelLevel as number | null,
  };
};

const place = (v: unknown): SummaryPlace => {
  const [latitude, longitude, time, speed] = v as number[];
  return { latitude: latitude!, longitude: longitude!, time: Number(time), speed: speed! };
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
        from: q.from.getTime(),
        to: q.to.getTime(),
        boundaries: q.boundaries,
        threshold: q.speedThreshold,
        radius: q.radiusMetres,
        maxMps: mpsOfKnots(q.maxSpeed),
        thresholdIds: own.map(([id]) => id),
        thresholds: own.map(([, t]) => t),
      },
    };
    const columns = `device_id, id, fix_time, toUnixTimestamp64Milli(fix_time) AS t, server_time, latitude, longitude, speed, ignition, odometer, attributes`;

    /** The parts of the fixes of `ids` (after `after` and up to `until`, epoch ms, when given). */
    async function* parts(ids: number[], after?: number, until?: number): AsyncGenerator<SummaryPart[]> {
      const out: SummaryPart[] = [];
      const fixes = `SELECT ${columns} ${source.sql}
        ${after === undefined ? '' : `AND fix_time > fromUnixTimestamp64Milli({after:Int64}, 'UTC')`}
        ${until === undefined ? '' : `AND fix_time <= fromUnixTimestamp64Milli({until:Int64}, 'UTC')`}`;
      for await (const r of queryRows(ch, sumsOver(fixes), { ...source.params, ids, after, until }, q.signal)) {
        out.push({
          deviceId: Number(r[0]),
          day: Number(r[1]),
          first: end(r[2]),
          last: end(r[3]),
          fixes: Number(r[4]),
          maxSpeed: Math.max(0, r[5] as number),
          movingSpeedSum: r[6] as number,
          movingFixes: Number(r[7]),
          path: r[8] as number,
          gap: r[14] as number,
          ignitionMs: Number(r[9]),
          ignitionFixes: Number(r[10]),
          firstPlace: Number(r[13]) > 0 ? place(r[11]) : null,
          lastPlace: Number(r[13]) > 0 ? place(r[12]) : null,
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
        const edge = queryRows(
          ch,
          `SELECT toUnixTimestamp64Milli(fix_time) ${source.sql}
            ${after === undefined ? '' : `AND fix_time > fromUnixTimestamp64Milli({after:Int64}, 'UTC')`}
            ORDER BY device_id, fix_time LIMIT 1 OFFSET {offset:UInt64}`,
          { ...source.params, ids: w.ids, after, offset: pageRows - 1 },
          q.signal,
        );
        for await (const [t] of edge) until = Number(t);
        yield* parts(w.ids, after, until);
        if (until === undefined) break;
        after = until;
      }
    }
  };
}
