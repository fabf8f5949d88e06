import type { Analytics } from '../adapters/analytics';

/**
 * The corridor observatory's daily indicators (migrations/clickhouse/0004_observatory_daily.sql)
 * recomputed from its facts (0003) for the given UTC days: each group of each day rewritten whole,
 * from the facts as they are now (FINAL: a fact written twice counts once), under a version that
 * is the moment the computation began, so the newest computation of a group is the one kept. The
 * geofence service calls it for the days its tracker's facts touched; a test that writes facts
 * itself calls it after them.
 */
export async function rollUpObservatoryDays(ch: Analytics, days: readonly string[], version = Date.now()): Promise<void> {
  if (!days.length) return;
  const sorted = [...new Set(days)].sort();
  const params = { days: sorted, version, first: sorted[0], last: sorted.at(-1) };
  const db = ch.database;
  // the days as a range first (the facts' sort keys and partitions narrow on it), then the list
  const inDays = (column: string): string =>
    `${column} >= toDateTime64({first:Date}, 3, 'UTC') AND ${column} < toDateTime64({last:Date} + 1, 3, 'UTC') AND toDate(${column}) IN {days:Array(Date)}`;
  const statements = [
    `INSERT INTO ${db}.obs_visits_daily ${perCompanyAndAll({
      head: 'toDate(exited_at) AS day, place_id, any(place_name), any(place_kind), any(corridor), direction',
      tail: 'count(), groupBitmapState(device_id), sumMap(map(toUInt32(ceil(dwell_s / 60)), toUInt64(1))), {version:UInt64}',
      from: `${db}.obs_visits FINAL WHERE ${inDays('exited_at')}`,
      groupBy: 'day, place_id, direction',
    })}`,
    `INSERT INTO ${db}.obs_legs_daily ${perCompanyAndAll({
      head: 'toDate(arrived_at) AS day, corridor, kind, from_place, to_place, any(from_name), any(to_name), any(from_along_m), any(to_along_m), direction',
      tail: `countIf(excluded = ''), groupBitmapStateIf(device_id, excluded = ''), sumMapIf(map(toUInt32(ceil(transit_s / 60)), toUInt64(1)), excluded = ''),
             countIf(excluded = 'left_corridor'), countIf(excluded = 'long_stop'), {version:UInt64}`,
      from: `${db}.obs_legs FINAL WHERE ${inDays('arrived_at')}`,
      groupBy: 'day, corridor, kind, from_place, to_place, direction',
    })}`,
    `INSERT INTO ${db}.obs_stops_daily ${perCompanyAndAll({
      head: 'toDate(started_at) AS day, corridor, direction',
      tail: 'sumMap(map(toUInt32(floor(stop_s / 60)), toUInt64(1))), {version:UInt64}',
      from: `${db}.obs_stops FINAL WHERE ${inDays('started_at')} AND area = ''`,
      groupBy: 'day, corridor, direction',
    })}`,
    `INSERT INTO ${db}.obs_distance_daily ${perCompanyAndAll({
      head: 'day, corridor, direction',
      tail: 'sum(distance_m), groupBitmapState(device_id), {version:UInt64}',
      from: `${db}.obs_distance FINAL WHERE day >= {first:Date} AND day <= {last:Date} AND day IN {days:Array(Date)}`,
      groupBy: 'day, corridor, direction',
    })}`,
  ];
  // one after another: chDB runs one query of a process at a time anyway, and a server is spared a burst
  for (const query of statements) await ch.client.command({ query, query_params: params });
}

/**
 * The company_id of a daily row that holds every company's trucks together (the largest UInt64; 0
 * is the trucks of no company): the association's view, the open data and the map read these rows
 * only, and a company's "others" are these rows less the company's own.
 */
export const ALL_COMPANIES = '18446744073709551615';

/** The rows of each company, then the same groups for every company together (company_id ALL_COMPANIES). */
function perCompanyAndAll(p: { head: string; tail: string; from: string; groupBy: string }): string {
  return `SELECT ${p.head}, company_id, ${p.tail} FROM ${p.from} GROUP BY ${p.groupBy}, company_id
          UNION ALL
          SELECT ${p.head}, toUInt64(${ALL_COMPANIES}), ${p.tail} FROM ${p.from} GROUP BY ${p.groupBy}`;
}

/** The UTC day (YYYY-MM-DD) of an instant in ms. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * A quantile of durations kept as a histogram of whole minutes (minute → how many), in seconds,
 * interpolated between the two nearest values as quantileExactInclusive does over the values
 * themselves (position (n − 1) · q of the sorted values); null when there are none.
 */
export function histogramQuantile(minutes: Readonly<Record<string, number>>, q: number): number | null {
  const bins = Object.entries(minutes)
    .map(([k, c]) => [Number(k), c] as const)
    .filter(([, c]) => c > 0)
    .sort((a, b) => a[0] - b[0]);
  const n = bins.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return null;
  const h = (n - 1) * q;
  const valueAt = (index: number): number => {
    let seen = 0;
    for (const [minute, count] of bins) {
      seen += count;
      if (index < seen) return minute;
    }
    return bins.at(-1)![0];
  };
  const lo = valueAt(Math.floor(h));
  const hi = valueAt(Math.ceil(h));
  return (lo + (h - Math.floor(h)) * (hi - lo)) * 60;
}

/** How many of a histogram's durations are above `minutes` (a duration rounded up to its minute is over T minutes when its minute is above T). */
export function histogramCountAbove(minutes: Readonly<Record<string, number>>, threshold: number): number {
  let n = 0;
  for (const [k, c] of Object.entries(minutes)) if (Number(k) > threshold) n += c;
  return n;
}

/** How many of a histogram's durations are at least `minutes` (a duration rounded down to its minute lasts M minutes or more when its minute is M or more). */
export function histogramCountAtLeast(minutes: Readonly<Record<string, number>>, threshold: number): number {
  let n = 0;
  for (const [k, c] of Object.entries(minutes)) if (Number(k) >= threshold) n += c;
  return n;
}

/** A histogram less another (a company's minutes taken out of everyone's); minutes that reach 0 are dropped. */
export function histogramMinus(all: Readonly<Record<string, number>>, part: Readonly<Record<string, number>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, c] of Object.entries(all)) {
    const left = c - (part[k] ?? 0);
    if (left > 0) out[k] = left;
  }
  return out;
}
