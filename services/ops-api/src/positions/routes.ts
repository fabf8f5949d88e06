import { positionsEndpoints, type PositionMessage } from '@corridor/contracts';
import {
  AppError, cacheKeys, queryLatestPositions, queryPositionHistory, registerEndpoint, type Analytics, type App, type Cache,
} from '@corridor/platform';
import type { DevicesRepository } from '../devices/repository';

const [listEndpoint] = positionsEndpoints;

/** GET /api/positions: latest per device (cache first, ClickHouse for the rest) or a history. */
export function positionQueryRoutes(app: App, deps: { analytics: Analytics; cache: Cache; devices: DevicesRepository }): void {
  const history = queryPositionHistory(deps.analytics);
  const latestFromStore = queryLatestPositions(deps.analytics);

  async function latest(deviceIds: number[]): Promise<PositionMessage[]> {
    if (!deviceIds.length) return [];
    const cached = await deps.cache.mget(deviceIds.map(cacheKeys.latestPosition));
    const found: PositionMessage[] = [];
    const missing: number[] = [];
    deviceIds.forEach((id, i) => {
      const c = cached[i];
      if (c) found.push(JSON.parse(c) as PositionMessage);
      else missing.push(id);
    });
    if (missing.length) found.push(...(await latestFromStore(missing)));
    return found.sort((a, b) => a.deviceId - b.deviceId);
  }

  registerEndpoint(app, listEndpoint, async (req) => {
    const q = req.query;
    if (q.id?.length) {
      const parsed = q.id.map((id) => /^(\d+)-(\d+)$/.exec(id));
      if (parsed.some((m) => !m)) throw new AppError('VALIDATION_FAILED', 'id: expected "<deviceId>-<fixTime ms>" position ids');
      const all = await Promise.all(
        parsed.map((m) => history({ deviceIds: [Number(m![1])], from: new Date(Number(m![2])), to: new Date(Number(m![2])), limit: 1 })),
      );
      return all.flat();
    }
    if (q.from || q.to) {
      if (!q.from || !q.to) throw new AppError('VALIDATION_FAILED', 'from and to must be given together', { fields: ['from', 'to'] });
      if (!q.deviceId?.length) throw new AppError('VALIDATION_FAILED', 'deviceId is required with from and to', { fields: ['deviceId'] });
      const from = new Date(q.from);
      const to = new Date(q.to);
      if (from > to) throw new AppError('VALIDATION_FAILED', 'from must not be after to', { fields: ['from', 'to'] });
      return history({ deviceIds: q.deviceId, from, to, limit: q.limit });
    }
    const ids = q.deviceId?.length ? q.deviceId : (await deps.devices.list({ limit: 10000, offset: 0 })).map((d) => d.id);
    return latest(ids);
  });
}
