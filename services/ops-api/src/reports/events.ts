import { ALL_EVENT_TYPES, type Event, type EventMessage } from '@corridor/contracts';
import { toApiEvent } from '@corridor/platform';
import { field, type ReportTable } from './formats/table';

/** Traccar's `type=%` (and its web app's `type=allEvents`): every type. Returns the types to filter on (none = all). */
export function eventTypesFilter(types: readonly string[] | undefined): string[] | undefined {
  if (!types?.length || types.some((t) => (ALL_EVENT_TYPES as readonly string[]).includes(t))) return undefined;
  return [...new Set(types)];
}

/** Stored events in the API's (Traccar's) shape, batch by batch. */
export async function* apiEvents(batches: AsyncIterable<EventMessage[]>): AsyncGenerator<Event[]> {
  for await (const b of batches) yield b.map((e) => toApiEvent(e));
}

/** The events report's rows (Traccar: Event[]); the device's name comes from the report's devices. */
export function eventsTable(deviceNames: ReadonlyMap<number, string>): ReportTable<Event> {
  return {
    name: 'events',
    columns: [
      field('deviceId', 'Device id', 'integer'),
      { key: 'deviceName', label: 'Device', kind: 'text', get: (e) => deviceNames.get(e.deviceId) ?? null },
      field('eventTime', 'Time (UTC)', 'time'),
      field('type', 'Type', 'text'),
      { key: 'alarm', label: 'Alarm', kind: 'text', get: (e) => (typeof e.attributes['alarm'] === 'string' ? e.attributes['alarm'] : null) },
      field('latitude', 'Latitude', 'number'),
      field('longitude', 'Longitude', 'number'),
      field('address', 'Address', 'text'),
      field('geofenceId', 'Geofence', 'integer'),
      field('journeyId', 'Journey', 'text'),
      field('positionId', 'Position', 'integer'),
      field('id', 'Event', 'integer'),
      field('attributes', 'Attributes', 'json'),
    ],
  };
}
