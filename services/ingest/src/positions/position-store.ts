import { PositionMessage, Topics } from '@corridor/contracts';
import {
  cacheKeys,
  consumeValidated,
  gauge,
  insertEvents,
  insertPositions,
  unavailable,
  type Analytics,
  type Bus,
  type Cache,
  type Logger,
  type Subscription,
} from '@corridor/platform';
import { reportedEvents } from './publisher';

export const POSITION_WRITER_GROUP = 'position-writer';
const lastFix = gauge('position_writer_last_fix_lag_seconds', 'Server time minus fix time of the last stored position');

/**
 * Consumer of positions.v1 that stores every position in ClickHouse, with the alarm and
 * commandResult events the device reported in it (so the events API and report find them), and
 * keeps the latest position per device in the cache. Idempotent: ClickHouse collapses redelivered
 * rows (same position id, the first arrival kept; events by their deterministic id) and the cache
 * only moves forward in (fix time, id): a state record is later than the fix of the same second, a
 * resent position is not later than itself.
 */
export async function startPositionStore(deps: { bus: Bus; analytics: Analytics; cache: Cache; logger: Logger }): Promise<Subscription> {
  const insert = insertPositions(deps.analytics);
  const insertReported = insertEvents(deps.analytics);
  return consumeValidated({
    bus: deps.bus,
    logger: deps.logger,
    groupId: POSITION_WRITER_GROUP,
    topic: Topics.positions,
    schema: PositionMessage,
    fromBeginning: true,
    handle: async (positions) => {
      try {
        await insert(positions);
        const events = reportedEvents(positions);
        if (events.length) await insertReported(events);
      } catch (err) {
        throw unavailable('ClickHouse', err);
      }
      await updateLatest(deps.cache, positions);
      const newest = positions[positions.length - 1];
      if (newest) lastFix.set((Date.now() - Date.parse(newest.fixTime)) / 1000);
    },
  });
}

/**
 * Keeps each device's latest position in the cache. Ingest stores fix times to the second and a
 * position id grows with (fix second, kind) for one device (position-id.ts), so the id alone
 * orders a device's positions as (fix time, id) does; the cache compares it and sets in one atomic
 * step, so two writers (instances of this consumer during a rebalance) never put an older fix over
 * a newer one. A position marked `clockAhead` (its device's clock runs ahead) never becomes it.
 */
export async function updateLatest(cache: Cache, positions: PositionMessage[]): Promise<void> {
  const newestByDevice = new Map<number, PositionMessage>();
  for (const p of positions) {
    // dated past the allowed skew ahead of the server (intake.ts): kept, never the latest
    if (typeof p.attributes.clockAhead === 'number') continue;
    const cur = newestByDevice.get(p.deviceId);
    if (!cur || p.id > cur.id) newestByDevice.set(p.deviceId, p);
  }
  await Promise.all(
    [...newestByDevice].map(([id, p]) => cache.setJsonIfHigher(cacheKeys.latestPosition(id), JSON.stringify(p), 'id', p.id)),
  );
}
