import { EventMessage } from '@corridor/contracts';
import type { Analytics } from '../adapters/analytics';
import { columnType, migrateTable } from './table-migration';
import { tableDdl, type TableLayout } from './table-layout';
import { positionIdSql } from './positions';

/** ClickHouse events (alarms, geofence enter/exit, journey flags). Deduped by id through ReplacingMergeTree. */
export const eventsTable: TableLayout = {
  name: 'events',
  columns: `  id String,
  type LowCardinality(String),
  event_time DateTime64(3, 'UTC'),
  device_id UInt64,
  position_id Nullable(UInt64),
  journey_id Nullable(String),
  geofence_id Nullable(String),
  latitude Nullable(Float64),
  longitude Nullable(Float64),
  attributes String,
  inserted_at DateTime64(3, 'UTC') DEFAULT now64(3)`,
  engine: 'ReplacingMergeTree(inserted_at)',
  clauses: `PARTITION BY toYYYYMM(event_time)
ORDER BY (device_id, event_time, id)`,
  shardingKey: 'cityHash64(device_id)',
};

/**
 * The numeric event id (api-event.ts eventNumericId) of an events row, in ClickHouse: the low 53
 * bits of the key's MD5 read little-endian (0 reads as 1, as there).
 */
export const eventIdSql = (column = 'id'): string =>
  `greatest(bitAnd(reinterpretAsUInt64(substring(MD5(${column}), 1, 8)), 9007199254740991), 1)`;

/** The single-node DDL (chDB, compose); tableDdl(placement, eventsTable) gives the cluster's. */
export const eventsDdl = (database: string): string => tableDdl({ database }, eventsTable)[0]!;

interface EventRow {
  id: string; type: string; event_time: string; device_id: number | string; position_id: number | string | null;
  journey_id: string | null; geofence_id: string | null; latitude: number | null; longitude: number | null; attributes: string;
}

const chTime = (iso: string): string => new Date(iso).toISOString().replace('T', ' ').replace('Z', '');
const isoTime = (ch: string): string => (ch.includes('T') ? ch : ch.replace(' ', 'T') + 'Z');

const COLUMNS = 'id, type, event_time, device_id, position_id, journey_id, geofence_id, latitude, longitude, attributes, inserted_at';

/** Events stored before numeric position ids (position_id '<deviceId>-<fix ms>') get the id of that position. */
const eventsMigration = (ch: Analytics) => ({
  table: 'events',
  ddl: tableDdl(ch, eventsTable),
  isLegacy: async (c: Analytics) => (await columnType(c, 'events', 'position_id')) === 'Nullable(String)',
  copy: (from: string) => `INSERT INTO ${ch.database}.events (${COLUMNS})
    SELECT id, type, event_time, device_id,
      if(match(ifNull(position_id, ''), '^[0-9]+-[0-9]{12,}$'),
         ${positionIdSql("toUInt64(splitByChar('-', position_id)[1])", "fromUnixTimestamp64Milli(toInt64(splitByChar('-', position_id)[2]), 'UTC')", '0')}, NULL),
      journey_id, geofence_id, latitude, longitude, attributes, inserted_at
    FROM ${from}`,
});

/** Creates the events table, or migrates it from its layout before numeric position ids. */
export async function ensureEventsTable(ch: Analytics): Promise<void> {
  await migrateTable(ch, eventsMigration(ch));
}

export function insertEvents(ch: Analytics) {
  return async (events: EventMessage[]): Promise<void> => {
    if (!events.length) return;
    await ch.client.insert({
      table: `${ch.database}.events`,
      format: 'JSONEachRow',
      values: events.map((e): EventRow => ({
        id: e.id, type: e.type, event_time: chTime(e.eventTime), device_id: e.deviceId, position_id: e.positionId,
        journey_id: e.journeyId, geofence_id: e.geofenceId, latitude: e.latitude, longitude: e.longitude,
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
      query_params: { ids: q.deviceIds, from: chTime(q.from.toISOString()), to: chTime(q.to.toISOString()), types: q.types ?? [], limit: q.limit },
      format: 'JSONEachRow',
    });
    return (await rs.json<EventRow>()).map((r) =>
      EventMessage.parse({
        id: r.id, type: r.type, eventTime: isoTime(r.event_time), deviceId: Number(r.device_id), positionId: r.position_id === null ? null : Number(r.position_id),
        journeyId: r.journey_id, geofenceId: r.geofence_id, latitude: r.latitude, longitude: r.longitude,
        attributes: JSON.parse(r.attributes) as Record<string, unknown>,
      }),
    );
  };
}
