import { apiPosition, GPX_MEDIA_TYPE, parsePositionId, positionsEndpoints, type PositionMessage } from '@corridor/contracts';
import {
  addressedPosition,
  AppError,
  cacheKeys,
  companyScope,
  queryLatestPositions,
  queryPositionHistory,
  queryPositionsById,
  registerEndpoint,
  type Analytics,
  type App,
  type Cache,
  type Geocoder,
} from '@corridor/platform';
import type { DevicesRepository } from '../devices/repository';
import type { ExportFormat, PositionExporter } from './export-routes';

const [listEndpoint] = positionsEndpoints;

/** The export a history asked for with Accept text/csv or GPX answers instead of JSON (Traccar's PositionResource). */
function exportAsked(accept: string | undefined): ExportFormat | undefined {
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  if (types[0] === 'text/csv') return 'csv';
  if (types[0] === GPX_MEDIA_TYPE) return 'gpx';
  return undefined;
}

/**
 * GET /api/positions: latest per device (cache first, ClickHouse for the rest) or a history (JSON, or
 * CSV/GPX by Accept), each position with its offline address (a day of 10 s fixes: 8,640 lookups, tens of ms).
 */
export function positionQueryRoutes(
  app: App,
  deps: { analytics: Analytics; cache: Cache; devices: DevicesRepository; exporter: PositionExporter; geocoder: Geocoder },
): void {
  const history = queryPositionHistory(deps.analytics);
  const latestFromStore = queryLatestPositions(deps.analytics);
  const byId = queryPositionsById(deps.analytics);

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

  /** Traccar's Position, with its offline address */
  const addressed = (positions: PositionMessage[]) => positions.map((p) => apiPosition(addressedPosition(deps.geocoder, p)));

  registerEndpoint(app, listEndpoint, async (req, reply) => {
    const q = req.query;
    const scope = companyScope(req.identity!);
    const asked = exportAsked(req.headers.accept);
    if (asked && q.from && q.to) {
      if (q.deviceId?.length !== 1)
        throw new AppError('VALIDATION_FAILED', 'a CSV or GPX export is of one deviceId', { fields: ['deviceId'] });
      return deps.exporter(reply, asked, { deviceId: q.deviceId[0]!, from: q.from, to: q.to }, scope);
    }
    if (q.id?.length) {
      // an id names its device (position-id.ts): only ids of devices the caller may see are looked up
      const devices = [...new Set(q.id.map((id) => parsePositionId(id)?.deviceId).filter((d): d is number => d !== undefined))];
      const allowed = new Set(devices.length ? await visible(devices, scope) : []);
      return addressed(await byId(q.id.filter((id) => allowed.has(parsePositionId(id)?.deviceId ?? 0))));
    }
    if (q.from || q.to) {
      if (!q.from || !q.to) throw new AppError('VALIDATION_FAILED', 'from and to must be given together', { fields: ['from', 'to'] });
      if (!q.deviceId?.length) throw new AppError('VALIDATION_FAILED', 'deviceId is required with from and to', { fields: ['deviceId'] });
      const from = new Date(q.from);
      const to = new Date(q.to);
      if (from > to) throw new AppError('VALIDATION_FAILED', 'from must not be after to', { fields: ['from', 'to'] });
      const ids = await visible(q.deviceId, scope);
      return ids.length ? addressed(await history({ deviceIds: ids, from, to, limit: q.limit })) : [];
    }
    return addressed(await latest(await visible(q.deviceId, scope)));
  });
}
