import { positionsEndpoints, type PositionMessage } from '@corridor/contracts';
import {
  AppError, cacheKeys, companyScope, queryLatestPositions, queryPositionHistory, registerEndpoint, type Analytics, type App, type Cache,
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

  /** The requested device ids the caller may see (company users: their company's devices only). */
  async function visible(requested: number[] | undefined, companyId: number | undefined): Promise<number[]> {
    if (companyId === undefined && requested?.length) return requested;
    const rows = await deps.devices.list({ ids: requested, companyId, limit: 10000, offset: 0 });
    return rows.map((d) => d.id);
  }

  registerEndpoint(app, listEndpoint, async (req) => {
    const q = req.query;
    const scope = companyScope(req.identity!);
    if (q.id?.length) {
      const parsed = q.id.map((id) => /^(\d+)-(\d+)$/.exec(id));
      if (parsed.some((m) => !m)) throw new AppError('VALIDATION_FAILED', 'id: expected "<deviceId>-<fixTime ms>" position ids');
      const all = await Promise.all(
        parsed.map((m) => history({ deviceIds: [Number(m![1])], from: new Date(Number(m![2])), to: new Date(Number(m![2])), limit: 1 })),
      );
      const allowed = new Set(await visible(all.flat().map((p) => p.deviceId), scope));
      return all.flat().filter((p) => allowed.has(p.deviceId));
    }
    if (q.from || q.to) {
      if (!q.from || !q.to) throw new AppError('VALIDATION_FAILED', 'from and to must be given together', { fields: ['from', 'to'] });
      if (!q.deviceId?.length) throw new AppError('VALIDATION_FAILED', 'deviceId is required with from and to', { fields: ['deviceId'] });
      const from = new Date(q.from);
      const to = new Date(q.to);
      if (from > to) throw new AppError('VALIDATION_FAILED', 'from must not be after to', { fields: ['from', 'to'] });
      const ids = await visible(q.deviceId, scope);
      return ids.length ? history({ deviceIds: ids, from, to, limit: q.limit }) : [];
    }
    return latest(await visible(q.deviceId, scope));
  });
}
