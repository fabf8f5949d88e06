import { z } from 'zod';

/**
 * Report settings from the environment, with Traccar's defaults (config/Keys.java). Durations in the
 * environment are seconds as in Traccar's configuration; `TripThresholds` holds them in milliseconds.
 */
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true');
const secs = (fallback: number) =>
  z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86400)
    .default(fallback);
const metres = (fallback: number) => z.coerce.number().min(0).max(1_000_000).default(fallback);

export const ReportEnv = z.object({
  /** Longest period one report may cover, days. */
  REPORT_MAX_PERIOD_DAYS: z.coerce.number().int().min(1).max(3660).default(92),
  REPORT_TRIP_NEW_LOGIC: flag(true),
  REPORT_TRIP_MIN_DISTANCE: metres(200),
  REPORT_TRIP_MIN_DURATION: secs(180),
  REPORT_TRIP_STOP_GAP: secs(3600),
  REPORT_TRIP_MINIMAL_TRIP_DISTANCE: metres(500),
  REPORT_TRIP_MINIMAL_TRIP_DURATION: secs(300),
  REPORT_TRIP_MINIMAL_PARKING_DURATION: secs(300),
  REPORT_TRIP_MINIMAL_NO_DATA_DURATION: secs(3600),
  REPORT_TRIP_USE_IGNITION: flag(false),
  REPORT_IGNORE_ODOMETER: flag(false),
  /**
   * knots (default 108, 200 km/h): the highest plausible speed. A leg between two fixes that would
   * need more is a jump, a gap in the track: not driven, so not in a report's distance; between
   * fixes seconds apart the speeds they report bound it more tightly (clickhouse/report-jumps.ts).
   */
  REPORT_MAX_SPEED: z.coerce.number().min(1).max(2000).default(108),
  /** knots: a fix without a `motion` attribute is in motion when faster than this. */
  EVENT_MOTION_SPEED_THRESHOLD: z.coerce.number().min(0).max(100).default(0.01),
  /**
   * Rows per analytics query when a report reads positions or events in pages (chDB holds a whole
   * answer in memory; default 20,000). Unset on ClickHouse: one streamed query per report.
   */
  REPORT_PAGE_ROWS: z.coerce.number().int().min(100).max(1_000_000).optional(),
  /**
   * Seconds between two looks for days whose stored runs are missing or stale (clickhouse/report-track-runs.ts;
   * each look computes them all, 2,000 device-days a query); 0: never (reports read those days' positions).
   */
  REPORT_TRACK_RUNS_S: z.coerce.number().int().min(0).max(86_400).default(300),
});
export type ReportEnv = z.output<typeof ReportEnv>;

/** Trip and stop detection thresholds; durations in milliseconds, distances in metres, speed in knots. */
export interface TripThresholds {
  newLogic: boolean;
  minDistance: number;
  minDuration: number;
  stopGap: number;
  minimalTripDistance: number;
  minimalTripDuration: number;
  minimalParkingDuration: number;
  minimalNoDataDuration: number;
  useIgnition: boolean;
  ignoreOdometer: boolean;
  speedThreshold: number;
  /** knots: legs that would need more are jumps, not driven (REPORT_MAX_SPEED; not set per device or request). */
  maxSpeed: number;
}

export interface ReportSettings {
  maxPeriodDays: number;
  trips: TripThresholds;
  /**
   * Where trips and stops are computed: 'track' (default), folded from the store's lean binary track
   * with the item fields read for the fixes items begin and end at; 'store', computed in the store
   * with window functions (motion-runs.ts) when every device of the report uses the older motion
   * model, else as 'track' (measured slower than 'track' on chDB: reports bench); 'rows', every fix
   * read whole and folded (the path the reports took first), the reference the others are tested
   * and benchmarked against.
   */
  motionInput?: 'store' | 'track' | 'rows';
  /**
   * With 'track': whether the whole days whose runs the store keeps (clickhouse/report-track-runs.ts)
   * are read as runs instead of every fix (default true; false: every fix, the path before, which
   * the bench and the equality tests compare against).
   */
  storedRuns?: boolean;
  /** Rows per analytics query page (REPORT_PAGE_ROWS); default: the analytics store's (see report-pages.ts). */
  pageRows?: number;
  /** REPORT_TRACK_RUNS_S × 1000: how often the stored runs of stale days are computed; 0 or unset: not by the service. */
  trackRunsEveryMs?: number;
}

export function reportSettingsFrom(env: ReportEnv): ReportSettings {
  return {
    maxPeriodDays: env.REPORT_MAX_PERIOD_DAYS,
    pageRows: env.REPORT_PAGE_ROWS,
    trackRunsEveryMs: env.REPORT_TRACK_RUNS_S * 1000,
    trips: {
      newLogic: env.REPORT_TRIP_NEW_LOGIC,
      minDistance: env.REPORT_TRIP_MIN_DISTANCE,
      minDuration: env.REPORT_TRIP_MIN_DURATION * 1000,
      stopGap: env.REPORT_TRIP_STOP_GAP * 1000,
      minimalTripDistance: env.REPORT_TRIP_MINIMAL_TRIP_DISTANCE,
      minimalTripDuration: env.REPORT_TRIP_MINIMAL_TRIP_DURATION * 1000,
      minimalParkingDuration: env.REPORT_TRIP_MINIMAL_PARKING_DURATION * 1000,
      minimalNoDataDuration: env.REPORT_TRIP_MINIMAL_NO_DATA_DURATION * 1000,
      useIgnition: env.REPORT_TRIP_USE_IGNITION,
      ignoreOdometer: env.REPORT_IGNORE_ODOMETER,
      speedThreshold: env.EVENT_MOTION_SPEED_THRESHOLD,
      maxSpeed: env.REPORT_MAX_SPEED,
    },
  };
}

/** Traccar's defaults (what an empty environment gives). */
export const defaultReportSettings = (): ReportSettings => reportSettingsFrom(ReportEnv.parse({}));
