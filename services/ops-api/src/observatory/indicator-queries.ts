import { z } from 'zod';
import type { ObservatoryDirection, ObservatoryPlaceKind, ObservatorySettingsInput } from '@corridor/contracts';
import {
  ALL_COMPANIES,
  histogramCountAbove,
  histogramCountAtLeast,
  histogramMinus,
  histogramQuantile,
  type Analytics,
} from '@corridor/platform';

/**
 * The observatory's indicators, from the daily rows (migrations/clickhouse/0004_observatory_daily.sql)
 * that the geofence service keeps from its tracker's facts: one row per group and UTC day, never a
 * fact nor a fix. FINAL keeps the newest computation of a day's group. Days merge into weeks and
 * months here: counts add, truck bitmaps unite (exact distinct trucks), the minute histograms add;
 * medians and p90 interpolate linearly between the minutes (as quantileExactInclusive does) and the
 * share over a threshold counts whole minutes above it (packages/platform/src/clickhouse/observatory-rollup.ts).
 */

/** week: from Monday (UTC); month: calendar month (UTC); total: the whole period as one. */
export type Bucket = 'week' | 'month' | 'total';

export interface IndicatorQuery {
  /** whole UTC days: the first day counted (00:00 UTC) */
  from: Date;
  /** whole UTC days: the first day not counted (00:00 UTC) */
  to: Date;
  bucket: Bucket;
  corridor?: string;
  direction: ObservatoryDirection;
  /** undefined: every truck as one series ('all'); a company: its trucks ('company') against every other ('others') */
  companyId?: number;
}

const day = (d: Date): string => d.toISOString().slice(0, 10);
const n = z.coerce.number();
const histogram = z.record(z.string(), z.coerce.number());
type Histogram = z.output<typeof histogram>;
type Series = 'all' | 'company' | 'others';

function periodOf(bucket: Bucket): string {
  if (bucket === 'week') return 'toString(toMonday(day))';
  if (bucket === 'month') return 'toString(toStartOfMonth(day))';
  return "''";
}
const wayOf = (d: ObservatoryDirection): number => (d === 'forward' ? 1 : -1);

function params(q: IndicatorQuery, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    from: day(q.from),
    to: day(q.to),
    corridor: q.corridor ?? '',
    all: ALL_COMPANIES,
    company: ownCompany(q) ?? 0,
    way: q.direction === 'both' ? 0 : wayOf(q.direction),
    ...extra,
  };
}
/** The company whose rows are its own, if it can have any (a company role without a company, -1, has none: its own series is empty). */
const ownCompany = (q: IndicatorQuery): number | undefined => (q.companyId !== undefined && q.companyId >= 0 ? q.companyId : undefined);
/** The rows of everyone together, or of the company (none without one). */
const rowsOf = (q: IndicatorQuery, who: 'all' | 'company'): string =>
  who === 'all' ? 'company_id = {all:UInt64}' : ownCompany(q) === undefined ? '0' : 'company_id = {company:UInt64}';
/** The filters every daily table shares: its days in [from, to), the corridor, the direction, everyone's rows and the company's. */
function where(q: IndicatorQuery, corridor = q.corridor ? 'corridor = {corridor:String}' : ''): string {
  return [
    'day >= {from:Date} AND day < {to:Date}',
    corridor,
    q.direction !== 'both' ? 'direction = {way:Int8}' : '',
    ownCompany(q) === undefined ? rowsOf(q, 'all') : `(${rowsOf(q, 'all')} OR ${rowsOf(q, 'company')})`,
  ]
    .filter(Boolean)
    .join(' AND ');
}

/**
 * The columns of one group for everyone (`_all`) and, with a company, for the company (`_company`):
 * counts added, minute histograms added, trucks united; the others' trucks are everyone's bitmap
 * less the company's (a truck that worked for the company and for another in the period counts
 * with the company only: the others' count can only come out lower, never reveal more).
 */
function figures(q: IndicatorQuery, f: { sums: readonly string[]; minutes: boolean; trucks: boolean }): string {
  const of = (who: 'all' | 'company') => rowsOf(q, who);
  const whos = q.companyId === undefined ? (['all'] as const) : (['all', 'company'] as const);
  const cols: string[] = [];
  for (const who of whos) {
    for (const c of f.sums) cols.push(`sumIf(${c}, ${of(who)}) AS ${c}_${who}`);
    if (f.minutes) cols.push(`sumMapIf(minutes, ${of(who)}) AS minutes_${who}`);
    if (f.trucks) cols.push(`groupBitmapMergeIf(trucks, ${of(who)}) AS trucks_${who}`);
  }
  if (f.trucks && q.companyId !== undefined) {
    cols.push(
      `bitmapCardinality(bitmapAndnot(groupBitmapMergeStateIf(trucks, ${of('all')}), groupBitmapMergeStateIf(trucks, ${of('company')}))) AS trucks_others`,
    );
  }
  return cols.join(', ');
}

interface Figures {
  sums: Record<string, number>;
  minutes: Histogram;
  trucks: number;
}
/**
 * The series of one group: everyone as 'all', or the company's own and the others' (everyone's
 * less the company's), each only when it has something (`has`).
 */
function seriesOf(
  raw: Record<string, unknown>,
  q: IndicatorQuery,
  sums: readonly string[],
  has: (f: Figures) => boolean,
): { series: Series; f: Figures }[] {
  const num = (k: string): number => Number(raw[k] ?? 0);
  const take = (who: 'all' | 'company'): Figures => ({
    sums: Object.fromEntries(sums.map((c) => [c, num(`${c}_${who}`)])),
    minutes: histogram.parse(raw[`minutes_${who}`] ?? {}),
    trucks: num(`trucks_${who}`),
  });
  const all = take('all');
  if (q.companyId === undefined) return has(all) ? [{ series: 'all', f: all }] : [];
  const company = take('company');
  const others: Figures = {
    sums: Object.fromEntries(sums.map((c) => [c, all.sums[c]! - company.sums[c]!])),
    minutes: histogramMinus(all.minutes, company.minutes),
    trucks: num('trucks_others'),
  };
  return [
    { series: 'company' as const, f: company },
    { series: 'others' as const, f: others },
  ].filter((s) => has(s.f));
}

async function rows(ch: Analytics, query: string, query_params: Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const rs = await ch.client.query({ query, query_params, format: 'JSONEachRow' });
  return z.array(z.record(z.string(), z.unknown())).parse(await rs.json());
}

const TransitGroup = z.object({
  period: z.string(),
  corridor: z.string(),
  kind: z.enum(['segment', 'corridor']),
  from_place: z.string(),
  to_place: z.string(),
  from_name: z.string(),
  to_name: z.string(),
  direction: n,
  from_along: n,
  to_along: n,
});
export type TransitRow = z.output<typeof TransitGroup> & {
  series: Series;
  trips: number;
  trucks: number;
  p50: number | null;
  p90: number | null;
  left_corridor: number;
  long_stop: number;
};
const LEG_SUMS = ['trips', 'left_corridor', 'long_stop'] as const;

/** Legs that arrived in the period, per period, corridor, kind, pair of places and series. */
export async function queryTransit(ch: Analytics, q: IndicatorQuery & { kind?: 'segment' | 'corridor' }): Promise<TransitRow[]> {
  const found = await rows(
    ch,
    `
    SELECT ${periodOf(q.bucket)} AS period, corridor, kind, from_place, to_place,
           any(from_name) AS from_name, any(to_name) AS to_name, direction,
           any(from_along_m) AS from_along, any(to_along_m) AS to_along, ${figures(q, { sums: LEG_SUMS, minutes: true, trucks: true })}
    FROM ${ch.database}.obs_legs_daily FINAL
    WHERE ${where(q)} ${q.kind ? 'AND kind = {kind:String}' : ''}
    GROUP BY period, corridor, kind, from_place, to_place, direction
    ORDER BY period, corridor, kind, direction DESC, from_along * direction`,
    params(q, { kind: q.kind ?? '' }),
  );
  return found.flatMap((raw) => {
    const group = TransitGroup.parse(raw);
    return seriesOf(raw, q, LEG_SUMS, (f) => f.sums.trips! + f.sums.left_corridor! + f.sums.long_stop! > 0).map(({ series, f }) => ({
      ...group,
      series,
      trips: f.sums.trips!,
      trucks: f.trucks,
      left_corridor: f.sums.left_corridor!,
      long_stop: f.sums.long_stop!,
      p50: histogramQuantile(f.minutes, 0.5),
      p90: histogramQuantile(f.minutes, 0.9),
    }));
  });
}

// the place's name, kind and corridor are read under aliases no column has: an alias named as a
// column would stand for its any() in the WHERE's filters (corridor, kinds: ClickHouse ILLEGAL_AGGREGATION)
const DwellGroup = z
  .object({ period: z.string(), place_id: z.string(), any_place_name: z.string(), any_place_kind: z.string(), any_corridor: z.string() })
  .transform((g) => ({
    period: g.period,
    place_id: g.place_id,
    place_name: g.any_place_name,
    place_kind: g.any_place_kind,
    corridor: g.any_corridor,
  }));
export type DwellRow = z.output<typeof DwellGroup> & {
  series: Series;
  visits: number;
  trucks: number;
  p50: number | null;
  p90: number | null;
  over: number;
  threshold: number;
};

/** Visits that ended in the period, per period, place and series; `over`: longer than the kind's threshold. */
export async function queryDwell(
  ch: Analytics,
  q: IndicatorQuery & { kinds?: readonly ObservatoryPlaceKind[] },
  thresholds: ObservatorySettingsInput['dwellThresholdMinutes'],
): Promise<DwellRow[]> {
  const found = await rows(
    ch,
    `
    SELECT ${periodOf(q.bucket)} AS period, place_id, any(place_name) AS any_place_name, any(place_kind) AS any_place_kind, any(corridor) AS any_corridor,
           ${figures(q, { sums: ['visits'], minutes: true, trucks: true })}
    FROM ${ch.database}.obs_visits_daily FINAL
    WHERE ${where(q)} ${q.kinds?.length ? 'AND place_kind IN {kinds:Array(String)}' : ''}
    GROUP BY period, place_id
    ORDER BY period, any_corridor, any_place_name`,
    params(q, { kinds: q.kinds ?? [] }),
  );
  return found.flatMap((raw) => {
    const group = DwellGroup.parse(raw);
    const limit = thresholds[group.place_kind as ObservatoryPlaceKind] ?? thresholds.checkpoint;
    return seriesOf(raw, q, ['visits'], (f) => f.sums.visits! > 0).map(({ series, f }) => ({
      ...group,
      series,
      visits: f.sums.visits!,
      trucks: f.trucks,
      p50: histogramQuantile(f.minutes, 0.5),
      p90: histogramQuantile(f.minutes, 0.9),
      over: histogramCountAbove(f.minutes, limit),
      threshold: limit * 60,
    }));
  });
}

const StopsGroup = z.object({ period: z.string(), corridor: z.string() });
export interface StopsRow {
  period: string;
  corridor: string;
  series: Series;
  km: number;
  trucks: number;
  stops: number;
}

/**
 * Stops outside every authorized place of at least `minStopMinutes` that began in the period,
 * against the distance driven on the corridor in it, per period, corridor and series. Only what
 * happened on a corridor counts on both sides.
 */
export async function queryStops(ch: Analytics, q: IndicatorQuery, minStopMinutes: number): Promise<StopsRow[]> {
  const filter = where(q, q.corridor ? 'corridor = {corridor:String}' : "corridor != ''");
  const [distance, stops] = await Promise.all([
    rows(
      ch,
      `
      SELECT ${periodOf(q.bucket)} AS period, corridor, ${figures(q, { sums: ['distance_m'], minutes: false, trucks: true })}
      FROM ${ch.database}.obs_distance_daily FINAL WHERE ${filter}
      GROUP BY period, corridor
      ORDER BY period, corridor`,
      params(q),
    ),
    rows(
      ch,
      `
      SELECT ${periodOf(q.bucket)} AS period, corridor, ${figures(q, { sums: [], minutes: true, trucks: false })}
      FROM ${ch.database}.obs_stops_daily FINAL WHERE ${filter}
      GROUP BY period, corridor`,
      params(q),
    ),
  ]);
  const key = (period: string, corridor: string, series: Series) => `${period}|${corridor}|${series}`;
  const counted = new Map<string, number>();
  for (const raw of stops) {
    const g = StopsGroup.parse(raw);
    for (const { series, f } of seriesOf(raw, q, [], () => true))
      counted.set(key(g.period, g.corridor, series), histogramCountAtLeast(f.minutes, minStopMinutes));
  }
  return distance.flatMap((raw) => {
    const g = StopsGroup.parse(raw);
    return seriesOf(raw, q, ['distance_m'], (f) => f.trucks > 0).map(({ series, f }) => ({
      period: g.period,
      corridor: g.corridor,
      series,
      km: f.sums.distance_m! / 1000,
      trucks: f.trucks,
      stops: counted.get(key(g.period, g.corridor, series)) ?? 0,
    }));
  });
}
