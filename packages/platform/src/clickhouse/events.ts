import { EventMessage } from '@corridor/contracts';
import type { Analytics } from '../adapters/analytics';

/* ClickHouse events (alarms, geofence enter/exit, journey flags; the table: migrations/clickhouse/0001_baseline.sql), deduplicated by id. */

/**
 * The numeric event id (api-event.ts eventNumericId) of an events row, in ClickHouse: the low 53
 * bits of the key's MD5 read little-endian (0 reads as 1, as there).
 */
export const eventIdSql = (column = 'id'): string =>
  `greatest(bitAnd(reinterpretAsUInt64(substring(MD5(${column}), 1, 8)), 9007199254740991), 1)`;

interface EventRow {
  id: string;
  type: string;
  event_time: string;
  device_id: number | string;
  position_id: number | string | null;
  journey_id: string | null;
  geofence_id: string | null;
  latitude: number | null;
  longitude: number | null;
  attributes: string;
}

const chTime = (iso: string): string => new Date(iso).toISOString().replace('T', ' ').replace('Z', '');
const isoTime = (ch: string): string => (ch.includes('T') ? ch : ch.replace(' ', 'T') + 'Z');

export function insertEvents(ch: Analytics) {
  return async (events: EventMessage[]): Promise<void> => {
    if (!events.length) return;
    await ch.client.insert({
      table: `${ch.database}.events`,
      format: 'JSONEachRow',
      values: events.map((e): EventRow => ({
        id: e.id,
        type: e.type,
        event_time: chTime(e.eventTime),
        device_id: e.deviceId,
        position_id: e.positionId,
        journey_id: e.journeyId,
        geofence_id: e.geofenceId,
        latitude: e.latitude,
        longitude: e.longitude,
        attributes: JSON.stringify(e.attributes),
      })),
    });
  };
}

export interface EventQuery {
  deviceIds: number[];
  from: Date;
  to: Date;
  types?: string[];
  limit: number;
}

export function queryEvents(ch: Analytics) {
  return async (q: EventQuery): Promise<EventMessage[]> => {
    const rs = await ch.client.query({
      query: `SELECT id, type, event_time, device_id, position_id, journey_id, geofence_id, latitude, longitude, attributes
              FROM ${ch.database}.events FINAL
              WHERE device_id IN {ids:Array(UInt64)}
                AND event_time >= {from:DateTime64(3, 'UTC')} AND event_time <= {to:DateTime64(3, 'UTC')}
                ${q.types?.length ? 'AND type IN {types:Array(String)}' : ''}
              ORDER BY event_time, id LIMIT {limit:UInt32}`,
      query_params: {
        ids: q.deviceIds,
        from: chTime(q.from.toISOString()),
        to: chTime(q.to.toISOString()),
        types: q.types ?? [],
        limit: q.limit,
      },
      format: 'JSONEachRow',
    });
    return (await rs.json<EventRow>()).map((r) =>
      EventMessage.parse({
        id: r.id,
        type: r.type,
        eventTime: isoTime(r.event_time),
        deviceId: Number(r.device_id),
        positionId: r.position_id === null ? null : Number(r.position_id),
        journeyId: r.journey_id,
        geofenceId: r.geofence_id,
        latitude: r.latitude,
        longitude: r.longitude,
        attributes: JSON.parse(r.attributes) as Record<string, unknown>,
      }),
    );
  };
}
