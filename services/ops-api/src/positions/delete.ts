import { eq } from 'drizzle-orm';
import { parsePositionId, type PositionMessage } from '@corridor/contracts';
import { AppError, cacheKeys, queryLatestPositions, type Analytics, type Cache, type Orm } from '@corridor/platform';
import { deletePositions, type PositionsToDelete } from '../clickhouse/position-delete';
import type { Actor } from '../resources/scope';
import { audit } from '../audit/audit';
import { devices } from '../db/schema';
import type { DeviceStateService } from '../device-state/service';

export interface PositionDeleteDeps {
  analytics: Analytics;
  cache: Cache;
  db: Orm;
  /**
   * Moves the device's live state (device-state/service.ts: the positionId GET /devices and the
   * `devices` frames show) off deleted positions: `gone` says which ids went, `newest` is what is left.
   */
  liveLatest?: (
    deviceId: number,
    uniqueId: string,
    gone: (positionId: number, fixTime: number) => boolean,
    newest: PositionMessage | undefined,
  ) => Promise<void>;
}

/**
 * Deleting positions (Traccar DELETE /positions and /positions/{id}, here an admin's act): the rows
 * go from ClickHouse, then the device's latest position is made consistent again (the cached latest
 * and the device's positionId move to the newest position left, or are cleared), and the deletion
 * is audited with what it removed.
 */
export function positionDeletion(deps: PositionDeleteDeps) {
  const remove = deletePositions(deps.analytics);
  const latestStored = queryLatestPositions(deps.analytics);
  const gone = (q: PositionsToDelete, p: { id: number; fixTime: string }): boolean =>
    'ids' in q ? q.ids.includes(p.id) : Date.parse(p.fixTime) >= q.from.getTime() && Date.parse(p.fixTime) <= q.to.getTime();

  /** After a deletion: the newest position left where the latest one was deleted. */
  async function relatest(q: PositionsToDelete): Promise<void> {
    const key = cacheKeys.latestPosition(q.deviceId);
    const cached = await deps.cache.get(key);
    const [device] = await deps.db
      .select({ positionId: devices.positionId, uniqueId: devices.uniqueId })
      .from(devices)
      .where(eq(devices.id, q.deviceId));
    const cachedGone = cached !== null && gone(q, JSON.parse(cached) as PositionMessage);
    const pointed = device?.positionId ? parsePositionId(device.positionId) : undefined;
    const pointedGone = pointed !== undefined && gone(q, { id: device!.positionId!, fixTime: pointed.fixTime.toISOString() });
    const [newest] = await latestStored([q.deviceId]);
    if (device && deps.liveLatest)
      await deps.liveLatest(
        q.deviceId,
        device.uniqueId,
        (id, fixTime) => gone(q, { id, fixTime: new Date(fixTime).toISOString() }),
        newest,
      );
    if (!cachedGone && !pointedGone) return;
    if (cachedGone) {
      if (newest) await deps.cache.set(key, JSON.stringify(newest));
      else await deps.cache.del(key);
    }
    if (pointedGone)
      await deps.db
        .update(devices)
        .set({ positionId: newest?.id ?? null })
        .where(eq(devices.id, q.deviceId));
  }

  async function run(
    q: PositionsToDelete,
    actor: Actor,
    entry: { action: string; entityType: 'device' | 'position'; entityId: number; what: Record<string, unknown> },
  ): Promise<number> {
    const count = await remove(q);
    if (count === 0 && entry.entityType === 'position') throw new AppError('NOT_FOUND', `No position ${entry.entityId}`);
    await relatest(q);
    await audit.record(deps.db, actor.identity, {
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId,
      after: { ...entry.what, deleted: count },
      requestId: actor.requestId,
    });
    return count;
  }

  return {
    /** A device's positions over a period; the number deleted. */
    period: (deviceId: number, from: Date, to: Date, actor: Actor) =>
      run({ deviceId, from, to }, actor, {
        action: 'positions.delete',
        entityType: 'device',
        entityId: deviceId,
        what: { from: from.toISOString(), to: to.toISOString() },
      }),
    /** One position by its id (404 when it names no stored position). */
    async one(id: number, actor: Actor): Promise<void> {
      const parsed = parsePositionId(id);
      if (!parsed) throw new AppError('NOT_FOUND', `No position ${id}`);
      await run({ deviceId: parsed.deviceId, ids: [id] }, actor, {
        action: 'position.delete',
        entityType: 'position',
        entityId: id,
        what: { deviceId: parsed.deviceId, fixTime: parsed.fixTime.toISOString() },
      });
    },
  };
}

/** PositionDeleteDeps.liveLatest through the device-state service: a live positionId that was deleted moves to the newest left. */
export const liveLatestOf =
  (deviceState: Pick<DeviceStateService, 'apply'>): NonNullable<PositionDeleteDeps['liveLatest']> =>
  (deviceId, uniqueId, gone, newest) =>
    deviceState.apply([
      {
        deviceId,
        uniqueId,
        apply: (s) => ({
          state:
            s.positionId !== null && s.fixTime !== null && gone(s.positionId, s.fixTime)
              ? { ...s, positionId: newest?.id ?? null, fixTime: newest ? Date.parse(newest.fixTime) : null }
              : s,
        }),
      },
    ]);
