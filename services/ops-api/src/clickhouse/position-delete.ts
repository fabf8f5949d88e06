import { touchTrackDays, type Analytics } from '@corridor/platform';
import { dayOfPositionId, daysBetween } from './report-track-runs';

/** Positions of one device to delete: over a period, or these ids. */
export type PositionsToDelete = { deviceId: number; from: Date; to: Date } | { deviceId: number; ids: number[] };

const where = (ch: Analytics, q: PositionsToDelete): { sql: string; params: Record<string, unknown> } =>
  'ids' in q
    ? {
        sql: `FROM ${ch.database}.positions WHERE device_id = {device:UInt64} AND id IN {ids:Array(UInt64)}`,
        params: { device: q.deviceId, ids: q.ids },
      }
    : {
        sql: `FROM ${ch.database}.positions WHERE device_id = {device:UInt64}
        AND fix_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND fix_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')`,
        params: { device: q.deviceId, from: q.from.getTime(), to: q.to.getTime() },
      };

/**
 * Deletes stored positions with a lightweight DELETE (the rows disappear from every read at once;
 * the parts are rewritten by later merges), and marks their days' stored runs stale. Returns how
 * many distinct positions there were.
 */
export function deletePositions(ch: Analytics) {
  const touch = touchTrackDays(ch);
  return async (q: PositionsToDelete): Promise<number> => {
    const w = where(ch, q);
    const rs = await ch.client.query({
      query: `SELECT uniqExact(fix_time, id) AS n ${w.sql}`,
      query_params: w.params,
      format: 'JSONEachRow',
    });
    const [row] = await rs.json<{ n: string | number }>();
    const n = Number(row?.n ?? 0);
    if (n > 0) {
      await ch.client.command({ query: `DELETE ${w.sql}`, query_params: w.params });
      // the reports' stored runs of those days no longer hold (report-track-runs.ts)
      const days = 'ids' in q ? [...new Set(q.ids.map(dayOfPositionId))] : daysBetween(q.from.getTime(), q.to.getTime());
      await touch([q.deviceId], days);
    }
    return n;
  };
}
