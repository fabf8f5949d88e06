import type { Analytics } from '@corridor/platform';
import { deviceWindows, pageRowsFor, queryRows } from './report-pages';
import { jumpSql, mpsOfKnots } from './report-jumps';
import { attributeSql, positionsSource } from './report-positions';

/**
 * The runs of Traccar's older motion model (report.trip.newLogic = false), computed in ClickHouse
 * with window functions over each device's ordered fixes: a run is a stretch of fixes with the same
 * motion flag (the `motion` attribute, else speed above the device's threshold), also broken where
 * the data gap before a fix reaches minimalNoDataDuration. Per run the store returns its first,
 * second and last fix, its highest speed, and the fix at which a streak of its flag would be
 * confirmed (counted from the run's first fix, and from its second): in motion for
 * minimalTripDuration or over minimalTripDistance of path, out of motion for minimalParkingDuration
 * or (useIgnition) at a fix with ignition off. Only these rows leave the store, not the fixes; the
 * few-state machine over them is motion-runs.ts in ops-api.
 *
 * The fixes are those the track reads (report-track.ts): sort key (device_id, fix_time, id), a
 * redelivered position kept once with its first arrival. Path is the sum of haversine legs (as
 * geo-math's distanceMetres computes them, with the caller's Earth radius) from the device's first
 * fix of the period but the jumps (report-jumps.ts), which add up to `gap`, ignition time the legs
 * with ignition on at both ends: running totals, so an interval's measures are the difference of
 * its two ends.
 *
 * chDB holds a query's working set in process: devices are asked for in pages of about `pageRows`
 * fixes; a device with more fixes than a page is asked for alone (a run must not be cut).
 */
export interface MotionRunThresholds {
  /** knots */
  speedThreshold: number;
  /** ms */
  minimalTripDuration: number;
  /** metres */
  minimalTripDistance: number;
  /** ms */
  minimalParkingDuration: number;
  /** ms */
  minimalNoDataDuration: number;
  useIgnition: boolean;
}

export interface MotionRunsQuery {
  deviceIds: number[];
  from: Date;
  to: Date;
  thresholdsOf(deviceId: number): MotionRunThresholds;
  /** Earth radius of the haversine path, metres (geo-math's EARTH_RADIUS_M). */
  radiusMetres: number;
  /** knots: the highest plausible speed; longer legs are jumps (report-jumps.ts). */
  maxSpeed: number;
  pageRows?: number;
  signal?: AbortSignal;
}

/** A fix at a point of a run, with the running totals from the device's first fix of the period. */
export interface RunFix {
  deviceId: number;
  time: number;
  id: number;
  latitude: number;
  longitude: number;
  /** knots */
  speed: number;
  /** metres driven (jumps left out) */
  path: number;
  /** metres of jumps */
  gap: number;
  /** ms */
  ignitionMs: number;
  ignitionFixes: number;
}

/** The fix confirming a streak that began at the run's first (or second) fix, with speed maxima around it. */
export interface RunConfirmation {
  fix: RunFix;
  /** Highest speed from the streak's first fix through this one. */
  streakMax: number;
  /** Highest speed of the run's fixes before this one. */
  maxBefore: number;
  /** Highest speed from this fix to the run's end. */
  maxFrom: number;
}

export interface MotionRun {
  deviceId: number;
  moving: boolean;
  /** The gap before the run's first fix reached minimalNoDataDuration (never for a device's first run). */
  afterGap: boolean;
  fixes: number;
  first: RunFix;
  /** Absent for a run of one fix. */
  second?: RunFix;
  last: RunFix;
  maxSpeed: number;
  /** Highest speed of the run's fixes after its first (0 for a run of one fix). */
  maxAfterFirst: number;
  fromFirst?: RunConfirmation;
  fromSecond?: RunConfirmation;
}

const FIX = 'tuple(t, id, lat, lon, spd, path, ign_total, ign_fixes, gap)';
const RAD = 'pi() / 180';
const per = (name: string, type: string) => `transform(device_id, {ids:Array(UInt64)}, {${name}:Array(${type})}, toFloat64(0))`;

/** Per fix, then per run: see the module comment. Thresholds come per device as arrays beside `ids`. */
const runsOver = (fixes: string): string => `
SELECT device_id, seg, any(moving), anyIf(after_gap, k = 1), count(), anyIf(${FIX}, k = 1), anyIf(${FIX}, k = 2), argMax(${FIX}, k), max(spd),
       argMinIf(tuple(${FIX}, pm, pm_before, sm), k, k >= 2 AND confirms_1), countIf(k >= 2 AND confirms_1),
       argMinIf(tuple(${FIX}, pm_2, pm_before, sm), k, k >= 3 AND confirms_2), countIf(k >= 3 AND confirms_2),
       maxIf(spd, k >= 2)
FROM (
  SELECT *,
         row_number() OVER s AS k,
         first_value(t) OVER s AS t_1, first_value(path) OVER s AS path_1,
         nth_value(t, 2) OVER s AS t_2, nth_value(path, 2) OVER s AS path_2,
         max(spd) OVER s AS pm, max(spd_after_first) OVER s AS pm_2,
         max(spd) OVER (PARTITION BY device_id, seg ORDER BY t, id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS pm_before,
         max(spd) OVER (PARTITION BY device_id, seg ORDER BY t, id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS sm,
         if(moving, t - t_1 >= trip_ms OR path - path_1 >= trip_m, t - t_1 >= parking_ms OR (use_ignition AND ign = false)) AS confirms_1,
         if(moving, t - t_2 >= trip_ms OR path - path_2 >= trip_m, t - t_2 >= parking_ms OR (use_ignition AND ign = false)) AS confirms_2
  FROM (
    SELECT *,
           sum(leg) OVER u AS path, sum(jumped) OVER u AS gap, sum(ign_ms) OVER u AS ign_total, sum(ign_known) OVER u AS ign_fixes, sum(breaks) OVER u AS seg
    FROM (
      SELECT *,
             lagInFrame(lat, 1, nan) OVER w AS prev_lat, lagInFrame(lon, 1, nan) OVER w AS prev_lon,
             lagInFrame(t, 1, toInt64(0)) OVER w AS prev_t, lagInFrame(ign, 1, NULL) OVER w AS prev_ign, lagInFrame(spd, 1, toFloat64(0)) OVER w AS prev_spd,
             lagInFrame(moving, 1, false) OVER w AS prev_moving, row_number() OVER w AS rn,
             rn > 1 AND t - prev_t >= no_data_ms AS after_gap,
             toUInt64(rn = 1 OR moving != prev_moving OR after_gap) AS breaks,
             if(breaks = 1, toFloat64(-1), spd) AS spd_after_first,
             if(prev_ign = true AND ign = true, t - prev_t, toInt64(0)) AS ign_ms, toUInt64(ign IS NOT NULL) AS ign_known,
             (lat - prev_lat) * ${RAD} AS d_lat, (lon - prev_lon) * ${RAD} AS d_lon,
             sin(d_lat / 2) * sin(d_lat / 2) + cos(prev_lat * ${RAD}) * cos(lat * ${RAD}) * sin(d_lon / 2) * sin(d_lon / 2) AS h,
             if(rn = 1, toFloat64(0), 2 * {radius:Float64} * asin(least(1, sqrt(h)))) AS raw_leg,
             ${jumpSql('raw_leg', 't - prev_t', 'prev_spd', 'spd')} AS jump,
             if(jump, toFloat64(0), raw_leg) AS leg, if(jump, raw_leg, toFloat64(0)) AS jumped
      FROM (
        SELECT device_id, toUnixTimestamp64Milli(fix_time) AS t, id, latitude AS lat, longitude AS lon, toFloat64(toString(speed)) AS spd, ignition AS ign,
               ifNull(${attributeSql('attributes', 'motion', 'Nullable(Bool)')}, spd > ${per('speed', 'Float64')}) AS moving,
               ${per('tripMs', 'Float64')} AS trip_ms, ${per('tripM', 'Float64')} AS trip_m, ${per('parkingMs', 'Float64')} AS parking_ms,
               ${per('noDataMs', 'Float64')} AS no_data_ms, ${per('useIgnition', 'Float64')} = 1 AS use_ignition
        FROM (${fixes})
        ORDER BY device_id, fix_time, id, server_time
        LIMIT 1 BY device_id, fix_time, id
      )
      WINDOW w AS (PARTITION BY device_id ORDER BY t, id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
    )
    WINDOW u AS (PARTITION BY device_id ORDER BY t, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
  )
  WINDOW s AS (PARTITION BY device_id, seg ORDER BY t, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
)
GROUP BY device_id, seg
ORDER BY device_id, seg`;

const fixOf = (deviceId: number, v: unknown): RunFix => {
  const [time, id, latitude, longitude, speed, path, ignitionMs, ignitionFixes, gap] = v as unknown[];
  return {
    deviceId,
    time: Number(time),
    id: Number(id),
    latitude: latitude as number,
    longitude: longitude as number,
    speed: speed as number,
    path: path as number,
    gap: gap as number,
    ignitionMs: Number(ignitionMs),
    ignitionFixes: Number(ignitionFixes),
  };
};

const confirmationOf = (deviceId: number, v: unknown): RunConfirmation => {
  const [fix, streakMax, maxBefore, maxFrom] = v as unknown[];
  return { fix: fixOf(deviceId, fix), streakMax: streakMax as number, maxBefore: maxBefore as number, maxFrom: maxFrom as number };
};

function runOf(r: unknown[]): MotionRun {
  const deviceId = Number(r[0]);
  const fixes = Number(r[4]);
  return {
    deviceId,
    moving: Boolean(r[2]),
    afterGap: Boolean(r[3]),
    fixes,
    first: fixOf(deviceId, r[5]),
    second: fixes > 1 ? fixOf(deviceId, r[6]) : undefined,
    last: fixOf(deviceId, r[7]),
    maxSpeed: r[8] as number,
    maxAfterFirst: fixes > 1 ? (r[13] as number) : 0,
    fromFirst: Number(r[10]) > 0 ? confirmationOf(deviceId, r[9]) : undefined,
    fromSecond: Number(r[12]) > 0 ? confirmationOf(deviceId, r[11]) : undefined,
  };
}

/** The runs of the devices, in device id order, each device's in time order; a batch per query. */
export function streamMotionRuns(ch: Analytics) {
  return async function* (q: MotionRunsQuery): AsyncGenerator<MotionRun[]> {
    if (!q.deviceIds.length) return;
    const ids = [...new Set(q.deviceIds)].sort((a, b) => a - b);
    const source = positionsSource(ch, q);
    const pageRows = pageRowsFor(ch, q.pageRows);
    const plan = Number.isFinite(pageRows)
      ? await deviceWindows(ch, { ...source, params: { ...source.params } }, ids, pageRows, q.signal)
      : [{ ids }];
    for (const w of plan) {
      const t = w.ids.map((id) => q.thresholdsOf(id));
      const params = {
        ...source.params,
        ids: w.ids,
        radius: q.radiusMetres,
        maxMps: mpsOfKnots(q.maxSpeed),
        speed: t.map((x) => x.speedThreshold),
        tripMs: t.map((x) => x.minimalTripDuration),
        tripM: t.map((x) => x.minimalTripDistance),
        parkingMs: t.map((x) => x.minimalParkingDuration),
        noDataMs: t.map((x) => x.minimalNoDataDuration),
        useIgnition: t.map((x) => (x.useIgnition ? 1 : 0)),
      };
      const fixes = `SELECT device_id, fix_time, server_time, id, latitude, longitude, speed, ignition, attributes ${source.sql}`;
      const out: MotionRun[] = [];
      for await (const r of queryRows(ch, runsOver(fixes), params, q.signal)) out.push(runOf(r));
      if (out.length) yield out;
    }
  };
}
