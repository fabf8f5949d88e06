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
      { key: 'deviceName', label: 'deviceName', kind: 'text', get: (e) => deviceNames.get(e.deviceId) ?? null },
      field('eventTime', 'time'),
      field('type', 'text'),
      {
        key: 'alarm',
        label: 'alarm',
        kind: 'text',
        get: (e) => (typeof e.attributes['alarm'] === 'string' ? e.attributes['alarm'] : null),
      },
      field('address', 'text'),
      field('latitude', 'coordinate'),
      field('longitude', 'coordinate'),
      field('geofenceId', 'integer'),
      field('journeyId', 'text'),
      field('deviceId', 'integer'),
      field('positionId', 'integer'),
      field('id', 'integer', 'eventId'),
      field('attributes', 'json'),
    ],
  };
}
