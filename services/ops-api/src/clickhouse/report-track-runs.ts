import { POSITION_ID_DEVICE_BITS, POSITION_ID_EPOCH_MS } from '@corridor/contracts';
import type { Analytics } from '@corridor/platform';
import { attributeSql } from './report-positions';

/**
 * The reports' lean track kept as runs (migrations/clickhouse/0005_track_runs.sql, issue 28): per
 * device and UTC day, each run of consecutive fixes with the same position, speed, ignition and
 * `motion` (a redelivered position kept once, by its first arrival) is one element of the day's
 * row: its values once, its fixes' whole seconds and kind bits. The track reader (report-track.ts)
 * thins a run to its fixes before the device's still-run span from its first, two more and its
 * last: what it reads of a run from `track_runs` is exactly that (trackRunsSource), so a parked
 * day crosses as a few rows instead of every fix. A run cut at midnight (or anywhere) is still read
 * exactly: each piece keeps its own first span, two more and last, a superset of what the whole
 * run keeps, and the reader's thinning of the pieces keeps the same fixes as of the whole.
 *
 * Fresh or stale: a day's runs are first computed once it has ended (computeTrackRuns); afterwards
 * `track_touched` gets (device, day, the store's clock in µs) for every late fix the position writer
 * stores (platform insertPositions) and every deletion of positions (touchTrackDays). A day's runs
 * carry the newest mark they covered; a report reads a day's runs only when no mark is newer, else
 * that day's positions, so a late fix is never missed.
 */
const SPAN = 2 ** POSITION_ID_DEVICE_BITS;
const EPOCH_S = POSITION_ID_EPOCH_MS / 1000;
const DAY_MS = 86_400_000;

/**
 * The runs of the positions `where` selects (a condition on positions), one row per device and day,
 * `version` the SQL of each row's version. The migration 0005 computes the days stored before it
 * with the same statement (version 0); the test of this file checks they are the same text.
 */
export const trackRunsSql = (db: string, where: string, version: string): string => `
SELECT device_id, day, ${version}, r.1, r.2, r.3, r.4, r.5, r.6, r.7
FROM (
SELECT device_id, day, arraySort(x -> x.6[1], groupArray((la, lo, v, i, m, ts, ks))) AS r
FROM (
  SELECT device_id, day, run, any(la) AS la, any(lo) AS lo, any(v) AS v, any(i) AS i, any(m) AS m,
         arraySort(groupArray((t, k))) AS tk, tk.1 AS ts, tk.2 AS ks
  FROM (
    SELECT device_id, day, t, k, la, lo, v, i, m,
           sum(changed) OVER (PARTITION BY device_id, day ORDER BY t, k ROWS UNBOUNDED PRECEDING) AS run
    FROM (
      SELECT device_id, day, t, k, la, lo, v, i, m,
             row_number() OVER w = 1 OR (la, lo, v, i, m) != lagInFrame((la, lo, v, i, m)) OVER w AS changed
      FROM (
        SELECT device_id, toDate(fix_time) AS day, toUInt32(toUnixTimestamp(fix_time)) AS t,
               toUInt8(bitTest(id, ${POSITION_ID_DEVICE_BITS}) + throwIf(id != ((toUInt64(intDiv(toUnixTimestamp64Milli(fix_time), 1000) - ${EPOCH_S}) * 2 + bitTest(id, ${POSITION_ID_DEVICE_BITS})) * ${SPAN} + device_id)
                 OR toUnixTimestamp64Milli(fix_time) % 1000 != 0, 'a stored position whose id is not its device, whole-second fix time and kind')) AS k,
               argMin((latitude, longitude, speed, toInt8(ifNull(toInt8(ignition), -1)),
                       toInt8(ifNull(toInt8(${attributeSql('attributes', 'motion', 'Nullable(Bool)')}), -1))),
                      server_time) AS values,
               values.1 AS la, values.2 AS lo, values.3 AS v, values.4 AS i, values.5 AS m
        FROM ${db}.positions WHERE ${where}
        GROUP BY device_id, fix_time, id
      )
      WINDOW w AS (PARTITION BY device_id, day ORDER BY t, k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
    )
  )
  GROUP BY device_id, day, run
)
GROUP BY device_id, day
)`;

const INSERT_COLUMNS = 'device_id, day, version, latitude, longitude, speed, ignition, motion, times, kinds';
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** A device-day as one number (device ids are below 2^20, days since 1970 below 2^16): the store's IN takes a set of them. */
const dayKey = (deviceId: number, day: string): number => deviceId * 65_536 + Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const DAY_KEY_SQL = (day: string): string => `(device_id * 65536 + toUInt16(${day}))`;

interface TrackRunsComputeOptions {
  /** Device-days at most per round (default 2,000). */
  limit?: number;
  /**
   * Only days touched at least this long ago, and ended days not before this long after the store's
   * midnight (ms; default 2 minutes): an insert still under way is not raced.
   */
  settledMs?: number;
  /** How many days before the store's today are looked at for days never computed (default 2). */
  endedDays?: number;
}

/**
 * Computes the runs of the device-days whose runs are missing or stale: the days before the store's
 * today (the live day keeps changing; its reports read its positions) that have positions and no
 * runs, of the last `endedDays` days, and every day touched since its runs were computed (a late
 * fix, a deletion), touched at least `settledMs` ago. The touched versions are read first, then the
 * positions: a row stored after the version was read carries a newer version, so its day stays
 * stale. Returns how many device-days it computed.
 */
export function computeTrackRuns(ch: Analytics) {
  const db = ch.database;
  return async (o: TrackRunsComputeOptions = {}): Promise<number> => {
    const rs = await ch.client.query({
      query: `SELECT t.device_id AS device_id, toString(t.day) AS day, toString(t.version) AS version FROM (
          SELECT device_id, day, max(version) AS version FROM (
            SELECT device_id, day, version FROM ${db}.track_touched WHERE day < today()
            UNION ALL
            SELECT DISTINCT device_id, toDate(fix_time) AS day, toUInt64(0) AS version FROM ${db}.positions
            WHERE fix_time >= toDateTime64(today() - {endedDays:UInt16}, 3, 'UTC') AND fix_time < toDateTime64(today(), 3, 'UTC')
              AND now64(6) >= toDateTime64(today(), 6, 'UTC') + toIntervalMicrosecond({settledUs:UInt64})
          ) GROUP BY device_id, day
          HAVING version < toUnixTimestamp64Micro(now64(6)) - {settledUs:UInt64}
        ) AS t LEFT JOIN (
          SELECT device_id, day, max(version) AS version FROM ${db}.track_runs GROUP BY device_id, day
        ) AS r ON r.device_id = t.device_id AND r.day = t.day
        WHERE r.day != t.day OR r.version < t.version
        ORDER BY day, device_id LIMIT {limit:UInt32}`,
      query_params: { settledUs: (o.settledMs ?? 120_000) * 1000, limit: o.limit ?? 2_000, endedDays: o.endedDays ?? 2 },
      format: 'JSONEachRow',
    });
    const stale = await rs.json<{ device_id: string | number; day: string; version: string }>();
    if (!stale.length) return 0;
    const keys = stale.map((s) => dayKey(Number(s.device_id), s.day));
    await ch.client.command({
      query: `INSERT INTO ${db}.track_runs (${INSERT_COLUMNS}) ${trackRunsSql(
        db,
        `device_id IN {devices:Array(UInt64)} AND fix_time >= toDateTime64({first:Date}, 3, 'UTC')
          AND fix_time < toDateTime64({last:Date}, 3, 'UTC') + INTERVAL 1 DAY AND ${DAY_KEY_SQL('toDate(fix_time)')} IN {keys:Array(UInt64)}`,
        `{versions:Array(UInt64)}[indexOf({keys:Array(UInt64)}, ${DAY_KEY_SQL('day')})]`,
      )}`,
      query_params: {
        devices: [...new Set(stale.map((s) => Number(s.device_id)))],
        first: stale[0]!.day,
        last: stale.reduce((m, s) => (s.day > m ? s.day : m), stale[0]!.day),
        keys,
        versions: stale.map((s) => Number(s.version)),
      },
    });
    return stale.length;
  };
}

/** The UTC days from `from` to `to` (epoch ms), both included. */
export function daysBetween(from: number, to: number): string[] {
  const out: string[] = [];
  for (let d = Math.floor(from / DAY_MS) * DAY_MS; d <= to; d += DAY_MS) out.push(isoDay(d));
  return out;
}

/** The UTC day of a position id (its fix's whole second is in the id). */
export const dayOfPositionId = (id: number): string => isoDay((Math.floor(id / SPAN / 2) + EPOCH_S) * 1000);

/** A device's day whose runs a report may read, and the whole days of a period. */
export interface RunDay {
  deviceId: number;
  /** YYYY-MM-DD, UTC. */
  day: string;
}

/**
 * The device-days of the period whose stored runs are fresh (no touch newer than their version),
 * whole days only: a report's first and last day, when partial, are read from the positions.
 */
export function freshRunDays(ch: Analytics) {
  const db = ch.database;
  return async (deviceIds: number[], from: Date, to: Date, signal?: AbortSignal): Promise<RunDay[]> => {
    const first = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
    const last = Math.floor((to.getTime() + 1) / DAY_MS) * DAY_MS - DAY_MS; // the last day ending at or before `to`
    if (!deviceIds.length || last < first) return [];
    const rs = await ch.client.query({
      query: `SELECT r.device_id AS device_id, toString(r.day) AS day FROM (
          SELECT device_id, day, max(version) AS version FROM ${db}.track_runs
          WHERE device_id IN {ids:Array(UInt64)} AND day >= {first:Date} AND day <= {last:Date} GROUP BY device_id, day
        ) AS r LEFT JOIN (
          SELECT device_id, day, max(version) AS version FROM ${db}.track_touched
          WHERE device_id IN {ids:Array(UInt64)} AND day >= {first:Date} AND day <= {last:Date} GROUP BY device_id, day
        ) AS t ON t.device_id = r.device_id AND t.day = r.day
        WHERE r.version >= t.version ORDER BY device_id, day`,
      query_params: { ids: deviceIds, first: isoDay(first), last: isoDay(last) },
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    return (await rs.json<{ device_id: string | number; day: string }>()).map((r) => ({ deviceId: Number(r.device_id), day: r.day }));
  };
}

/**
 * `FROM … WHERE device_id IN {ids}` of a track read over positions and stored runs: the positions
 * of the period but the fresh days, and of those days each run's fixes before its device's span
 * (`spanSeconds`) from its first, two more and its last, as the columns `columns` gives positions
 * (d, t, s, k, la, lo, v, i, m) with device_id, fix_time and id for the sort and keyset. A run's
 * fixes are distinct keys, so a server time of 0 stands for their first arrival.
 */
export function trackRunsSource(
  ch: Analytics,
  q: { from: Date; to: Date },
  columns: string,
  fresh: RunDay[],
  spanSeconds: Map<number, number>,
): { sql: string; countSql: string; params: Record<string, unknown> } {
  const db = ch.database;
  const freshKeys = fresh.map((f) => dayKey(f.deviceId, f.day));
  // days fresh for every device of the read: left out of the positions' time ranges, so their
  // granules are not read at all (the per-row check below covers the days fresh for some devices only)
  const devices = new Set(fresh.map((f) => f.deviceId)).size;
  const perDay = new Map<string, number>();
  for (const f of fresh) perDay.set(f.day, (perDay.get(f.day) ?? 0) + 1);
  const common = [...perDay].filter(([, n]) => n === devices).map(([d]) => Date.parse(`${d}T00:00:00Z`));
  const ranges: [number, number][] = [];
  let at = q.from.getTime();
  for (const d of common.sort((a, b) => a - b)) {
    if (d > at) ranges.push([at, d - 1]);
    at = Math.max(at, d + DAY_MS);
  }
  if (at <= q.to.getTime()) ranges.push([at, q.to.getTime()]);
  const timeRanges = ranges.length
    ? ranges
        .map(
          ([a, b]) =>
            `(fix_time >= fromUnixTimestamp64Milli(toInt64(${a}), 'UTC') AND fix_time <= fromUnixTimestamp64Milli(toInt64(${b}), 'UTC'))`,
        )
        .join(' OR ')
    : '0';
  const positions = `FROM ${db}.positions
    WHERE device_id IN {ids:Array(UInt64)} AND (${timeRanges}) AND ${DAY_KEY_SQL('toDate(fix_time)')} NOT IN {freshKeys:Array(UInt64)}`;
  /** The fresh days' runs, with `lim` the time before which a run's fixes are all kept (the rest: two more and its last). */
  const runs = (arrays: string, names: string): string => `SELECT device_id, ${names},
          ts[1] + transform(device_id, {spanIds:Array(UInt64)}, {spanSeconds:Array(Float64)}, toFloat64(0)) AS lim
        FROM ${db}.track_runs FINAL
        ARRAY JOIN ${arrays}
        WHERE device_id IN {ids:Array(UInt64)} AND ${DAY_KEY_SQL('day')} IN {freshKeys:Array(UInt64)}`;
  const kept = 'least(arrayCount(x -> x < lim, ts) + 2, length(ts))';
  const sql = `FROM (
    SELECT device_id, fix_time, id, ${columns} ${positions}
    UNION ALL
    SELECT device_id, toDateTime64(t, 3, 'UTC') AS fix_time, toUInt64(((t - ${EPOCH_S}) * 2 + k) * ${SPAN} + device_id) AS id,
      toUInt32(device_id) AS d, t, toFloat64(0) AS s, k, la, lo, v, i, m
    FROM (
      SELECT device_id, la, lo, v, i, m, ts, ks, ${kept} AS n
      FROM (
        ${runs('latitude AS la, longitude AS lo, speed AS v, ignition AS i, motion AS m, times AS ts, kinds AS ks', 'la, lo, v, i, m, ts, ks')}
      )
    )
    ARRAY JOIN
      arrayConcat(arraySlice(ts, 1, n), arraySlice(ts, -1, toUInt64(length(ts) > n))) AS t,
      arrayConcat(arraySlice(ks, 1, n), arraySlice(ks, -1, toUInt64(length(ks) > n))) AS k
  ) WHERE device_id IN {ids:Array(UInt64)}`;
  // the rows each device's read holds, for chDB's page plan (report-pages.ts deviceWindows): a run's
  // fixes counted from its times, not expanded (counting the read's rows computed the expansion twice)
  const countSql = `SELECT device_id, sum(c) FROM (
      SELECT device_id, count() AS c ${positions} GROUP BY device_id
      UNION ALL
      SELECT device_id, sum(n + (length(ts) > n)) AS c FROM (SELECT device_id, ts, ${kept} AS n FROM (${runs('times AS ts', 'ts')})) GROUP BY device_id
    ) GROUP BY device_id ORDER BY device_id`;
  return {
    sql,
    countSql,
    params: { freshKeys, spanIds: [...spanSeconds.keys()], spanSeconds: [...spanSeconds.values()] },
  };
}
