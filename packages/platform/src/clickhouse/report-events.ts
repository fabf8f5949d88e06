import { EventMessage } from '@corridor/contracts';
import type { Analytics } from '../adapters/analytics';
import { DEFAULT_CHDB_PAGE_ROWS } from './report-positions';

/**
 * Events for the events report, streamed in (device id, event time, id) order and walked in keyset
 * pages like the report positions (one streamed query on ClickHouse, bounded pages on chDB), in batches.
 * Duplicates (same id redelivered) sit next to each other; the newest insert is kept.
 */
export interface ReportEventsQuery {
  deviceIds: number[];
  from: Date;
  to: Date;
  /** Only these event types (none = all). */
  types?: string[];
  /** Only events whose `alarm` attribute names one of these (comma-joined values match on any). */
  alarms?: string[];
  pageRows?: number;
}

interface EventRow {
  id: string; type: string; t: number | string; device_id: number | string; position_id: string | null;
  journey_id: string | null; geofence_id: string | null; latitude: number | null; longitude: number | null; attributes: string;
}

interface Cursor { deviceId: number; time: number; id: string }

export function streamEvents(ch: Analytics) {
  return async function* (q: ReportEventsQuery): AsyncGenerator<EventMessage[]> {
    if (!q.deviceIds.length) return;
    const pageRows = q.pageRows ?? (ch.kind === 'chdb' ? DEFAULT_CHDB_PAGE_ROWS : Infinity);
    const paged = Number.isFinite(pageRows);
    let after: Cursor | undefined;
    for (;;) {
      const rs = await ch.client.query({
        query: `SELECT id, type, toUnixTimestamp64Milli(event_time) AS t, device_id, position_id, journey_id, geofence_id,
                       latitude, longitude, attributes
                FROM ${ch.database}.events
                WHERE device_id IN {ids:Array(UInt64)}
                  AND event_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND event_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')
                  ${q.types?.length ? 'AND type IN {types:Array(String)}' : ''}
                  ${q.alarms?.length ? `AND hasAny(splitByChar(',', JSONExtractString(attributes, 'alarm')), {alarms:Array(String)})` : ''}
                  ${after ? `AND (device_id, event_time, id) > ({afterDevice:UInt64}, fromUnixTimestamp64Milli({afterTime:Int64}, 'UTC'), {afterId:String})` : ''}
                ORDER BY device_id, event_time, id, inserted_at DESC
                ${paged ? 'LIMIT {pageRows:UInt32}' : ''}`,
        query_params: {
          ids: q.deviceIds, from: q.from.getTime(), to: q.to.getTime(), types: q.types ?? [], alarms: q.alarms ?? [],
          ...(after ? { afterDevice: after.deviceId, afterTime: after.time, afterId: after.id } : {}),
          ...(paged ? { pageRows } : {}),
        },
        format: 'JSONEachRow',
      });
      let read = 0;
      let last: Cursor | undefined = after;
      for await (const rows of rs.stream()) {
        const batch: EventMessage[] = [];
        for (const raw of rows) {
          read++;
          const r = raw.json<EventRow>();
          const key = { deviceId: Number(r.device_id), time: Number(r.t), id: r.id };
          if (last && key.deviceId === last.deviceId && key.time === last.time && key.id === last.id) continue;
          last = key;
          batch.push(EventMessage.parse({
            id: r.id, type: r.type, eventTime: new Date(key.time).toISOString(), deviceId: key.deviceId, positionId: r.position_id,
            journeyId: r.journey_id, geofenceId: r.geofence_id, latitude: r.latitude, longitude: r.longitude,
            attributes: JSON.parse(r.attributes) as Record<string, unknown>,
          }));
        }
        if (batch.length) yield batch;
      }
      if (!paged || read < pageRows || !last) return;
      after = last;
    }
  };
}
