import type { EventMessage, PositionMessage } from '@corridor/contracts';
import type { Geocoder } from './geocoder';

/** A position as the API and the live feed answer it: with its offline address (Traccar's Position.address). */
export const addressedPosition = <P extends Pick<PositionMessage, 'latitude' | 'longitude'>>(
  g: Geocoder,
  p: P,
): P & { address: string | null } => ({ ...p, address: g.offline(p.latitude, p.longitude) });

/** An event with the offline address of where it happened; null for an event without a position. */
export const addressedEvent = <E extends Pick<EventMessage, 'latitude' | 'longitude'>>(
  g: Geocoder,
  e: E,
): E & { address: string | null } => ({
  ...e,
  address: e.latitude === null || e.longitude === null ? null : g.offline(e.latitude, e.longitude),
});
