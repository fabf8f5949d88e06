import { z } from 'zod';
import type { Analytics } from '@corridor/platform';

/**
 * Dwell statistics from the ClickHouse events table: visits that ended (geofenceExit, whose
 * attributes carry dwellSeconds) in [from, to), per fence and per day of the exit in `timezone`.
 * Percentiles interpolate linearly between the visits (quantileExactInclusive, as numpy's default).
 */
export const DwellStatsParams = z.object({
  from: z.date(),
  to: z.date(),
  /** undefined = every fence; [] = none */
  geofenceIds: z.array(z.number().int().positive()).optional(),
  /** only visits of this company's devices (companyId attribute of the event) */
  companyId: z.number().int().optional(),
  timezone: z.string().min(1),
  limit: z.number().int().min(1).max(1000),
  offset: z.number().int().min(0),
});
export type DwellStatsParams = z.infer<typeof DwellStatsParams>;

const Row = z.object({
  geofence_id: z.string(),
  day: z.string(),
  visits: z.coerce.number(),
  avg_s: z.coerce.number(),
  p50_s: z.coerce.number(),
  p90_s: z.coerce.number(),
  max_s: z.coerce.number(),
});

export interface DwellStats {
  geofenceId: number;
  day: string;
  count: number;
  avgSeconds: number;
  p50Seconds: number;
  p90Seconds: number;
  maxSeconds: number;
}

const chTime = (d: Date): string => d.toISOString().replace('T', ' ').replace('Z', '');
const round = (v: number): number => Math.round(v * 1000) / 1000;

export function queryDwellStats(ch: Analytics) {
  return async (input: DwellStatsParams): Promise<{ rows: DwellStats[]; total: number }> => {
    const q = DwellStatsParams.parse(input);
    if (q.geofenceIds && !q.geofenceIds.length) return { rows: [], total: 0 };
    const visits = `
      SELECT geofence_id, toString(toDate(event_time, {tz:String})) AS day, JSONExtractFloat(attributes, 'dwellSeconds') AS d
      FROM ${ch.database}.events FINAL
      WHERE type = 'geofenceExit'
        AND event_time >= {from:DateTime64(3, 'UTC')} AND event_time < {to:DateTime64(3, 'UTC')}
        ${q.geofenceIds ? 'AND geofence_id IN {ids:Array(String)}' : ''}
        ${q.companyId !== undefined ? "AND JSONExtractInt(attributes, 'companyId') = {company:Int64}" : ''}`;
    const params = {
      tz: q.timezone,
      from: chTime(q.from),
      to: chTime(q.to),
      ids: (q.geofenceIds ?? []).map(String),
      company: q.companyId ?? 0,
      limit: q.limit,
      offset: q.offset,
    };
    const [rs, totalRs] = await Promise.all([
      ch.client.query({
        query: `SELECT geofence_id, day, count() AS visits, avg(d) AS avg_s, quantileExactInclusive(0.5)(d) AS p50_s,
                       quantileExactInclusive(0.9)(d) AS p90_s, max(d) AS max_s
                FROM (${visits}) GROUP BY geofence_id, day
                ORDER BY day, toUInt64OrZero(geofence_id) LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
        query_params: params,
        format: 'JSONEachRow',
      }),
      ch.client.query({
        query: `SELECT count() AS n FROM (SELECT 1 FROM (${visits}) GROUP BY geofence_id, day)`,
        query_params: params,
        format: 'JSONEachRow',
      }),
    ]);
    const rows = z.array(Row).parse(await rs.json());
    const [total] = z.array(z.object({ n: z.coerce.number() })).parse(await totalRs.json());
    return {
      total: total?.n ?? 0,
      rows: rows.map((r) => ({
        geofenceId: Number(r.geofence_id),
        day: r.day,
        count: r.visits,
        avgSeconds: round(r.avg_s),
        p50Seconds: round(r.p50_s),
        p90Seconds: round(r.p90_s),
        maxSeconds: round(r.max_s),
      })),
    };
  };
}
