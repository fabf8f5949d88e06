import type { EventMessage } from '@corridor/contracts';
import type { Analytics } from '@corridor/platform';
import { deviceRows, pageRowsFor } from './report-pages';

/**
 * Events for the events report, in (device id, event time, id) order, read like the report
 * positions (report-pages.ts: one streamed query on ClickHouse, pages of a few devices on chDB,
 * small batches). A redelivered event (same id) is a second row of the same key; the newest insert is kept.
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
  batchRows?: number;
  /** Aborting stops the read (see report-pages.ts). */
  signal?: AbortSignal;
}

interface Cursor {
  deviceId: number;
  time: number;
  id: string;
}

const iso = (ms: unknown): string => new Date(Number(ms)).toISOString();

/** A stored event as its events.v1 message (fields in the contract's order); validated when written. */
function eventOf(r: unknown[]): EventMessage {
  return {
    id: r[2] as string,
    type: r[4] as EventMessage['type'],
    eventTime: iso(r[1]),
    deviceId: Number(r[0]),
    positionId: r[5] === null ? null : Number(r[5]),
    journeyId: r[6] as string | null,
    geofenceId: r[7] as string | null,
    latitude: r[8] as number | null,
    longitude: r[9] as number | null,
    attributes: JSON.parse(r[10] as string) as Record<string, unknown>,
  };
}

export function streamEvents(ch: Analytics) {
  return async function* (q: ReportEventsQuery): AsyncGenerator<EventMessage[]> {
    const rows = deviceRows<Cursor>(
      ch,
      {
        columns: `device_id, toUnixTimestamp64Milli(event_time), id, toUnixTimestamp64Milli(inserted_at), type, position_id, journey_id,
                geofence_id, latitude, longitude, attributes`,
        source: {
          sql: `FROM ${ch.database}.events WHERE device_id IN {ids:Array(UInt64)}
                AND event_time >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND event_time <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')
                ${q.types?.length ? 'AND type IN {types:Array(String)}' : ''}
                ${q.alarms?.length ? `AND hasAny(splitByChar(',', JSONExtractString(attributes, 'alarm')), {alarms:Array(String)})` : ''}`,
          params: { from: q.from.getTime(), to: q.to.getTime(), types: q.types ?? [], alarms: q.alarms ?? [] },
        },
        after: (k) => ({
          sql: `AND (event_time, id) > (fromUnixTimestamp64Milli({afterTime:Int64}, 'UTC'), {afterId:String})`,
          params: { afterTime: k.time, afterId: k.id },
        }),
        orderBy: 'device_id, event_time, id',
        keyOf: (r) => ({ deviceId: Number(r[0]), time: Number(r[1]), id: r[2] as string }),
        sameKey: (a, b) => a.deviceId === b.deviceId && a.time === b.time && a.id === b.id,
        newer: (a, b) => Number(b[3]) > Number(a[3]),
      },
      q.deviceIds,
      { pageRows: pageRowsFor(ch, q.pageRows), batchRows: q.batchRows, signal: q.signal },
    );
    for await (const batch of rows) yield batch.map(eventOf);
  };
}
