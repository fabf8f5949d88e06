import { EventMessage } from '@corridor/contracts';
import { eventIdSql, type Analytics } from '@corridor/platform';

const isoTime = (ch: string): string => (ch.includes('T') ? ch : ch.replace(' ', 'T') + 'Z');

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

/**
 * One event by its numeric id (platform's eventNumericId of its key) from ClickHouse; the list by
 * device and period is platform's queryEvents. The id is not a column: the lookup computes it over
 * the keys (a scan of the id column, as rare as a Traccar client opening one event).
 */
export function eventById(ch: Analytics) {
  return async (id: number): Promise<EventMessage | undefined> => {
    const rs = await ch.client.query({
      query: `SELECT id, type, event_time, device_id, position_id, journey_id, geofence_id, latitude, longitude, attributes
              FROM ${ch.database}.events FINAL WHERE ${eventIdSql()} = {id:UInt64} LIMIT 1`,
      query_params: { id },
      format: 'JSONEachRow',
    });
    const [r] = await rs.json<EventRow>();
    if (!r) return undefined;
    return EventMessage.parse({
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
    });
  };
}
