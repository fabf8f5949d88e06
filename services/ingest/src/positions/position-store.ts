import { PositionMessage, Topics } from '@corridor/contracts';
import {
  cacheKeys, consumeValidated, ensureEventsTable, ensurePositionsTable, gauge, insertEvents, insertPositions, unavailable,
  type Analytics, type Bus, type Cache, type Logger, type Subscription,
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
  await ensurePositionsTable(deps.analytics);
  await ensureEventsTable(deps.analytics);
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

/** Whether `a` is a later position of its device than `b` (fix time, then id: position-id.ts). */
const later = (a: PositionMessage, b: PositionMessage): boolean => {
  const ta = Date.parse(a.fixTime);
  const tb = Date.parse(b.fixTime);
  return ta > tb || (ta === tb && a.id > b.id);
};

async function updateLatest(cache: Cache, positions: PositionMessage[]): Promise<void> {
  const newestByDevice = new Map<number, PositionMessage>();
  for (const p of positions) {
    const cur = newestByDevice.get(p.deviceId);
    if (!cur || later(p, cur)) newestByDevice.set(p.deviceId, p);
  }
  const ids = [...newestByDevice.keys()];
  const stored = await cache.mget(ids.map(cacheKeys.latestPosition));
  await Promise.all(
    ids.map(async (id, i) => {
      const candidate = newestByDevice.get(id)!;
      const prev = stored[i];
      if (prev && !later(candidate, JSON.parse(prev) as PositionMessage)) return;
      await cache.set(cacheKeys.latestPosition(id), JSON.stringify(candidate));
    }),
  );
}
