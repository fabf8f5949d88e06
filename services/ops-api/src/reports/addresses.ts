import { withoutNulls, type ReportStop, type ReportTrip } from '@corridor/contracts';
import type { Geocoder } from '@corridor/platform';

/**
 * Fills the trips' startAddress and endAddress and the stops' address (Traccar's report addresses)
 * batch by batch as the report streams: from the configured geocoder (offline: microseconds; an
 * external one: cached, a few requests at once, the offline address when it fails).
 */
export function tripAddresses(geocoder: Geocoder) {
  return async function* (batches: AsyncIterable<ReportTrip[]>): AsyncGenerator<ReportTrip[]> {
    for await (const batch of batches) {
      yield await Promise.all(
        batch.map(async (t) => {
          const [startAddress, endAddress] = await Promise.all([
            geocoder.address(t.startLat, t.startLon),
            geocoder.address(t.endLat, t.endLon),
          ]);
          return { ...t, ...withoutNulls({ startAddress, endAddress }) };
        }),
      );
    }
  };
}

export function stopAddresses(geocoder: Geocoder) {
  return async function* (batches: AsyncIterable<ReportStop[]>): AsyncGenerator<ReportStop[]> {
    for await (const batch of batches) {
      yield await Promise.all(
        batch.map(async (s) => ({ ...s, ...withoutNulls({ address: await geocoder.address(s.latitude, s.longitude) }) })),
      );
    }
  };
}

/** Any batch stream with each item mapped (the events' and the combined report's offline addresses). */
export async function* mapped<T, U>(batches: AsyncIterable<T[]>, f: (item: T) => U): AsyncGenerator<U[]> {
  for await (const batch of batches) yield batch.map(f);
}
