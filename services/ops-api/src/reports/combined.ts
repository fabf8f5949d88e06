import type { CombinedReportItem, EventMessage, Position } from '@corridor/contracts';
import { toApiEvent } from '@corridor/platform';
import type { TrackChunk } from '../clickhouse/report-track';
import type { ReportDevice } from './report-devices';

/**
 * The rows of a device-ordered stream, device by device (a device's rows may span batches), each
 * batch item turned into rows as it is read (`rowsOf`; a track chunk is valid only until the next
 * batch is asked for).
 */
async function* perDeviceRows<B extends { deviceId: number }, T>(
  batches: AsyncIterable<B[]>,
  rowsOf: (item: B) => T[],
): AsyncGenerator<{ deviceId: number; rows: T[] }> {
  let current: { deviceId: number; rows: T[] } | undefined;
  for await (const batch of batches) {
    for (const item of batch) {
      if (current && current.deviceId !== item.deviceId) {
        yield current;
        current = undefined;
      }
      current ??= { deviceId: item.deviceId, rows: [] };
      for (const row of rowsOf(item)) current.rows.push(row);
    }
  }
  if (current) yield current;
}

/** A track chunk's [longitude, latitude] pairs. */
function lonLats(c: TrackChunk): [number, number][] {
  const out: [number, number][] = new Array(c.length);
  for (let i = 0; i < c.length; i++) out[i] = [c.longitude[i]!, c.latitude[i]!];
  return out;
}

/** Takes a device-ordered source device by device: `take(id)` gives that device's rows (none if it has none). */
function deviceCursor<T>(groups: AsyncGenerator<{ deviceId: number; rows: T[] }>) {
  let next: IteratorResult<{ deviceId: number; rows: T[] }> | undefined;
  return {
    async take(deviceId: number): Promise<T[]> {
      next ??= await groups.next();
      while (!next.done && next.value.deviceId < deviceId) next = await groups.next();
      if (next.done || next.value.deviceId !== deviceId) return [];
      const rows = next.value.rows;
      next = await groups.next();
      return rows;
    },
    close: () => groups.return(undefined),
  };
}

export interface CombinedSources {
  tracks: AsyncIterable<TrackChunk[]>;
  events: AsyncIterable<EventMessage[]>;
  /** Traccar's Position of each id, with its address */
  positionsById(ids: number[]): Promise<Position[]>;
}

/**
 * Traccar's combined report (CombinedReportProvider), one item per device in id order, read from
 * the device-ordered track and event streams together: the route is every position's
 * [longitude, latitude]; the events are those tied to a position, deviceMoving left out; the
 * positions are those any event of the period is tied to (deviceMoving's too, as Traccar does).
 */
export async function* combinedItems(devices: ReportDevice[], s: CombinedSources): AsyncGenerator<CombinedReportItem[]> {
  const route = deviceCursor(perDeviceRows(s.tracks, lonLats));
  const events = deviceCursor(perDeviceRows(s.events, (e) => [e]));
  try {
    for (const d of [...devices].sort((a, b) => a.id - b.id)) {
      const lonLat = await route.take(d.id);
      const all = await events.take(d.id);
      const tied = [...new Set(all.map((e) => e.positionId).filter((id): id is number => id !== null && id > 0))];
      const positions = tied.length ? await s.positionsById(tied) : [];
      yield [
        {
          deviceId: d.id,
          route: lonLat,
          events: all.filter((e) => e.positionId !== null && e.positionId > 0 && e.type !== 'deviceMoving').map((e) => toApiEvent(e)),
          positions,
        },
      ];
    }
  } finally {
    await route.close();
    await events.close();
  }
}
