import type { Analytics } from '@corridor/platform';

/** What the position exports read besides the positions themselves (ops-api positions/export.ts). */

/** The attribute keys the device's positions of the period carry, sorted (the CSV export's columns). */
export function queryAttributeKeys(ch: Analytics) {
  return async (q: { deviceId: number; from: Date; to: Date }, signal?: AbortSignal): Promise<string[]> => {
    const rs = await ch.client.query({
      query: `SELECT arraySort(groupUniqArrayArray(JSONExtractKeys(attributes))) AS keys FROM ${ch.database}.positions
              WHERE device_id = {device:UInt64} AND attributes != '{}'
                AND fix_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND fix_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')`,
      query_params: { device: q.deviceId, from: q.from.getTime(), to: q.to.getTime() },
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    const [row] = await rs.json<{ keys: string[] }>();
    return row?.keys ?? [];
  };
}

/**
 * The device's visits of a geofence over the period, as [start, end) in epoch ms, from the
 * geofenceEnter/geofenceExit events: a visit under way at `from` (its last event before is an
 * enter) starts at `from`; one still open at `to` ends just after it.
 */
export function queryGeofenceVisits(ch: Analytics) {
  return async (q: { deviceId: number; geofenceId: number; from: Date; to: Date }, signal?: AbortSignal): Promise<[number, number][]> => {
    const rs = await ch.client.query({
      query: `SELECT type, toUnixTimestamp64Milli(event_time) AS t FROM (
                SELECT type, event_time FROM ${ch.database}.events
                WHERE device_id = {device:UInt64} AND geofence_id = {geofence:String} AND type IN ('geofenceEnter', 'geofenceExit')
                  AND event_time < fromUnixTimestamp64Milli({from:Int64}, 'UTC')
                ORDER BY event_time DESC, id DESC LIMIT 1
                UNION ALL
                SELECT type, event_time FROM ${ch.database}.events
                WHERE device_id = {device:UInt64} AND geofence_id = {geofence:String} AND type IN ('geofenceEnter', 'geofenceExit')
                  AND event_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND event_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')
              ) ORDER BY t`,
      query_params: { device: q.deviceId, geofence: String(q.geofenceId), from: q.from.getTime(), to: q.to.getTime() },
      format: 'JSONEachRow',
      abort_signal: signal,
    });
    const out: [number, number][] = [];
    let open: number | undefined;
    for (const e of await rs.json<{ type: string; t: string | number }>()) {
      const t = Math.max(Number(e.t), q.from.getTime());
      if (e.type === 'geofenceEnter') open ??= t;
      else if (open !== undefined) {
        if (t > open) out.push([open, t]);
        open = undefined;
      }
    }
    if (open !== undefined) out.push([open, q.to.getTime() + 1]);
    return out;
  };
}
