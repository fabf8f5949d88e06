import { z } from 'zod';
import type { ObservatoryDirection, ObservatoryPlaceKind, ObservatorySettingsInput } from '@corridor/contracts';
import type { Analytics } from '@corridor/platform';

/**
 * The observatory's indicators, aggregated in ClickHouse from the facts the geofence service's
 * tracker writes (migrations/clickhouse/0003_observatory.sql): one row per visit, leg, stop and
 * device-day, never the fixes. FINAL collapses a fact written twice (a redelivered batch). Medians
 * and p90 interpolate linearly between the values (quantileExactInclusive, as the dwell statistics do).
 */

/** week: from Monday (UTC); month: calendar month (UTC); total: the whole period as one. */
export type Bucket = 'week' | 'month' | 'total';

export interface IndicatorQuery {
  from: Date;
  to: Date;
  bucket: Bucket;
  corridor?: string;
  direction: ObservatoryDirection;
  /** undefined: every truck as one series ('all'); a company: its trucks ('company') against every other ('others') */
  companyId?: number;
}

const chTime = (d: Date): string => d.toISOString().replace('T', ' ').replace('Z', '');
const n = z.coerce.number();
const nullableN = z.union([z.null(), n]).transform((v) => (v === null || !Number.isFinite(v) ? null : v));

function periodOf(column: string, bucket: Bucket): string {
  if (bucket === 'week') return `toString(toMonday(${column}))`;
  if (bucket === 'month') return `toString(toStartOfMonth(${column}))`;
  return "''";
}
const seriesOf = (q: IndicatorQuery): string => (q.companyId === undefined ? "'all'" : "if(toInt64(company_id) = {company:Int64}, 'company', 'others')");
const wayOf = (d: ObservatoryDirection): number => (d === 'forward' ? 1 : -1);

function params(q: IndicatorQuery, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { from: chTime(q.from), to: chTime(q.to), corridor: q.corridor ?? '', company: q.companyId ?? 0, way: q.direction === 'both' ? 0 : wayOf(q.direction), ...extra };
}
/** The filters every fact table shares: its time column in [from, to), the corridor, the direction. */
function where(q: IndicatorQuery, time: string): string {
  return [
    `${time} >= {from:DateTime64(3, 'UTC')} AND ${time} < {to:DateTime64(3, 'UTC')}`,
    q.corridor ? 'corridor = {corridor:String}' : '',
    q.direction !== 'both' ? 'direction = {way:Int8}' : '',
  ].filter(Boolean).join(' AND ');
}

async function rows<S extends z.ZodTypeAny>(ch: Analytics, schema: S, query: string, query_params: Record<string, unknown>): Promise<z.output<S>[]> {
  const rs = await ch.client.query({ query, query_params, format: 'JSONEachRow' });
  return z.array(schema).parse(await rs.json());
}

export const TransitRow = z.object({
  period: z.string(), corridor: z.string(), kind: z.enum(['segment', 'corridor']), from_place: z.string(), to_place: z.string(),
  from_name: z.string(), to_name: z.string(), direction: n, from_along: n, to_along: n, series: z.enum(['all', 'company', 'others']),
  trips: n, trucks: n, p50: nullableN, p90: nullableN, left_corridor: n, long_stop: n,
});
export type TransitRow = z.output<typeof TransitRow>;

/** Legs that arrived in the period, per period, corridor, kind, pair of places and series. */
export function queryTransit(ch: Analytics, q: IndicatorQuery & { kind?: 'segment' | 'corridor' }): Promise<TransitRow[]> {
  return rows(ch, TransitRow, `
    SELECT ${periodOf('arrived_at', q.bucket)} AS period, corridor, kind, from_place, to_place,
           any(from_name) AS from_name, any(to_name) AS to_name, direction,
           any(from_along_m) AS from_along, any(to_along_m) AS to_along, ${seriesOf(q)} AS series,
           countIf(excluded = '') AS trips, uniqExactIf(device_id, excluded = '') AS trucks,
           if(trips > 0, quantileExactInclusiveIf(0.5)(transit_s, excluded = ''), NULL) AS p50,
           if(trips > 0, quantileExactInclusiveIf(0.9)(transit_s, excluded = ''), NULL) AS p90,
           countIf(excluded = 'left_corridor') AS left_corridor, countIf(excluded = 'long_stop') AS long_stop
    FROM ${ch.database}.obs_legs FINAL
    WHERE ${where(q, 'arrived_at')} ${q.kind ? 'AND kind = {kind:String}' : ''}
    GROUP BY period, corridor, kind, from_place, to_place, direction, series
    ORDER BY period, corridor, kind, direction DESC, from_along * direction, series`, params(q, { kind: q.kind ?? '' }));
}

export const DwellRow = z.object({
  period: z.string(), place_id: z.string(), place_name: z.string(), place_kind: z.string(), corridor: z.string(), series: z.enum(['all', 'company', 'others']),
  visits: n, trucks: n, p50: nullableN, p90: nullableN, over: n, threshold: n,
});
export type DwellRow = z.output<typeof DwellRow>;

/** Visits that ended in the period, per period, place and series; `over`: longer than the kind's threshold. */
export function queryDwell(ch: Analytics, q: IndicatorQuery & { kinds?: readonly ObservatoryPlaceKind[] }, thresholds: ObservatorySettingsInput['dwellThresholdMinutes']): Promise<DwellRow[]> {
  const t = Object.fromEntries(Object.entries(thresholds).map(([k, minutes]) => [`t_${k}`, minutes * 60]));
  const threshold = `multiIf(place_kind = 'border_post', {t_border_post:Float64}, place_kind = 'port', {t_port:Float64}, place_kind = 'inland_depot', {t_inland_depot:Float64},
                             place_kind = 'weighbridge', {t_weighbridge:Float64}, {t_checkpoint:Float64})`;
  return rows(ch, DwellRow, `
    SELECT ${periodOf('exited_at', q.bucket)} AS period, place_id, place_name, place_kind, corridor,
           ${seriesOf(q)} AS series, count() AS visits, uniqExact(device_id) AS trucks,
           quantileExactInclusive(0.5)(dwell_s) AS p50, quantileExactInclusive(0.9)(dwell_s) AS p90,
           countIf(dwell_s > ${threshold}) AS over, ${threshold} AS threshold
    FROM ${ch.database}.obs_visits FINAL
    WHERE ${where(q, 'exited_at')} ${q.kinds?.length ? 'AND place_kind IN {kinds:Array(String)}' : ''}
    GROUP BY period, place_id, place_name, place_kind, corridor, series
    ORDER BY period, corridor, place_name, series`, params(q, { ...t, kinds: q.kinds ?? [] }));
}

export const StopsRow = z.object({ period: z.string(), corridor: z.string(), series: z.enum(['all', 'company', 'others']), km: n, trucks: n, stops: n });
export type StopsRow = z.output<typeof StopsRow>;

/**
 * Stops outside every authorized place of at least `minStopMinutes` that began in the period,
 * against the distance driven on the corridor in it (the days that began in it), per period,
 * corridor and series. Only what happened on a corridor counts on both sides.
 */
export function queryStops(ch: Analytics, q: IndicatorQuery, minStopMinutes: number): Promise<StopsRow[]> {
  const dayInPeriod = "day >= toDate({from:DateTime64(3, 'UTC')}) AND toDateTime64(day, 3, 'UTC') < {to:DateTime64(3, 'UTC')}";
  const common = [q.corridor ? 'corridor = {corridor:String}' : "corridor != ''", q.direction !== 'both' ? 'direction = {way:Int8}' : ''].filter(Boolean).join(' AND ');
  return rows(ch, StopsRow, `
    SELECT d.period AS period, d.corridor AS corridor, d.series AS series, d.km AS km, d.trucks AS trucks, s.stops AS stops
    FROM (
      SELECT ${periodOf('day', q.bucket)} AS period, corridor, ${seriesOf(q)} AS series, sum(distance_m) / 1000 AS km, uniqExact(device_id) AS trucks
      FROM ${ch.database}.obs_distance FINAL
      WHERE ${dayInPeriod} AND ${common}
      GROUP BY period, corridor, series
    ) AS d
    LEFT JOIN (
      SELECT ${periodOf('started_at', q.bucket)} AS period, corridor, ${seriesOf(q)} AS series, count() AS stops
      FROM ${ch.database}.obs_stops FINAL
      WHERE started_at >= {from:DateTime64(3, 'UTC')} AND started_at < {to:DateTime64(3, 'UTC')} AND ${common}
        AND area = '' AND stop_s >= {min_stop:Float64}
      GROUP BY period, corridor, series
    ) AS s ON s.period = d.period AND s.corridor = d.corridor AND s.series = d.series
    ORDER BY period, corridor, series`, params(q, { min_stop: minStopMinutes * 60 }));
}
