import { createHash } from 'node:crypto';
import type { Event, EventMessage } from '@corridor/contracts';

const MASK_53 = (1n << 53n) - 1n;

/**
 * The numeric id of an event (Traccar's Event.id is a number; Corridor's events carry a string key
 * for dedupe): the low 53 bits of the key's MD5, read little-endian, so it survives a JavaScript
 * number and the same key always gives the same id. ClickHouse computes the same with
 * eventIdSql (clickhouse/events.ts), which is how GET /events/{id} finds an event. Collisions: for
 * N events, about N²/2^54 pairs (0.07 for 36 million events, a year of a 2,000-truck fleet at
 * 50 events a truck a day).
 */
export function eventNumericId(key: string): number {
  const n = createHash('md5').update(key).digest().readBigUInt64LE(0) & MASK_53;
  return Number(n === 0n ? 1n : n);
}

const idOrZero = (v: unknown): number => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : 0;
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
};

/** An event in the API's (Traccar's) shape; `message` (a web notification's sentence) goes into its attributes. */
export function toApiEvent(e: EventMessage, message?: string): Event {
  return {
    id: eventNumericId(e.id),
    type: e.type,
    eventTime: e.eventTime,
    deviceId: e.deviceId,
    positionId: e.positionId ?? 0,
    geofenceId: idOrZero(e.geofenceId),
    maintenanceId: idOrZero(e.attributes.maintenanceId),
    journeyId: e.journeyId,
    latitude: e.latitude,
    longitude: e.longitude,
    attributes: message === undefined ? e.attributes : { ...e.attributes, message },
  };
}
