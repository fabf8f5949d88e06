import type { FastifyReply } from 'fastify';
import { GPX_MEDIA_TYPE, KML_MEDIA_TYPE, positionsEndpoints } from '@corridor/contracts';
import { AppError, companyScope, registerEndpoint, type Analytics, type App, type Geocoder, type Orm } from '@corridor/platform';
import { queryAttributeKeys, queryGeofenceVisits } from '../clickhouse/position-export';
import { streamRouteRows } from '../clickhouse/report-positions';
import type { DevicesRepository } from '../devices/repository';
import { actorOf } from '../resources/routes';
import { reportPeriod } from '../reports/period';
import type { ReportSettings } from '../reports/settings';
import { positionDeletion, type PositionDeleteDeps } from './delete';
import { positionsCsv, positionsGpx, positionsKml, within } from './export';

const byId = Object.fromEntries(positionsEndpoints.map((e) => [e.id, e]));
const ep = <K extends (typeof positionsEndpoints)[number]['id']>(id: K) =>
  byId[id] as Extract<(typeof positionsEndpoints)[number], { id: K }>;

export type ExportFormat = 'csv' | 'gpx' | 'kml';
const mediaTypes: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', gpx: GPX_MEDIA_TYPE, kml: KML_MEDIA_TYPE };

export interface PositionExportDeps extends PositionDeleteDeps {
  devices: DevicesRepository;
  reports: ReportSettings;
  db: Orm;
  analytics: Analytics;
  geocoder: Geocoder;
}

/** Aborts when the connection closes before the answer was sent in full. */
function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort(new Error('the client closed the connection'));
  });
  return gone.signal;
}

/** Streams one device's positions over a period as CSV, GPX or KML (Traccar's exports). */
export function positionExporter(deps: PositionExportDeps) {
  const rows = streamRouteRows(deps.analytics);
  const keys = queryAttributeKeys(deps.analytics);
  const visits = queryGeofenceVisits(deps.analytics);
  return async (
    reply: FastifyReply,
    format: ExportFormat,
    q: { deviceId: number; from: string; to: string; geofenceId?: number },
    scope: number | undefined,
  ) => {
    const period = reportPeriod(q, deps.reports.maxPeriodDays);
    const [device] = await deps.devices.list({ ids: [q.deviceId], companyId: scope, limit: 1, offset: 0 });
    if (!device) throw new AppError('NOT_FOUND', `No device ${q.deviceId} visible to you`, { deviceId: [q.deviceId] });
    const signal = clientGone(reply);
    const source = { deviceIds: [device.id], ...period, signal };
    const inside =
      q.geofenceId === undefined ? undefined : await visits({ deviceId: device.id, geofenceId: q.geofenceId, ...period }, signal);
    const batches = inside ? within(rows(source), inside) : rows(source);
    const body =
      format === 'csv'
        ? positionsCsv(batches, await keys({ deviceId: device.id, ...period }, signal), deps.geocoder.offline)
        : format === 'gpx'
          ? positionsGpx(batches, device.name)
          : positionsKml(batches, device.name, period);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    return reply
      .type(mediaTypes[format])
      .header('content-disposition', `attachment; filename="positions-${device.id}-${day(period.from)}-${day(period.to)}.${format}"`)
      .send(body);
  };
}
export type PositionExporter = ReturnType<typeof positionExporter>;

/** GET /api/positions/{csv,gpx,kml}; DELETE /api/positions and /api/positions/{id} (admins). */
export function positionExportRoutes(app: App, deps: PositionExportDeps, exporter: PositionExporter): void {
  for (const format of ['csv', 'gpx', 'kml'] as const) {
    registerEndpoint(app, ep(`positions.${format}`), async (req, reply) => exporter(reply, format, req.query, companyScope(req.identity!)));
  }
  const deletion = positionDeletion(deps);
  registerEndpoint(app, ep('positions.delete'), async (req, reply) => {
    const q = req.query;
    const { from, to } = reportPeriod(q, Number.MAX_SAFE_INTEGER);
    const [device] = await deps.devices.list({ ids: [q.deviceId], limit: 1, offset: 0 });
    if (!device) throw new AppError('NOT_FOUND', `No device ${q.deviceId}`, { deviceId: [q.deviceId] });
    await deletion.period(device.id, from, to, actorOf(req));
    return reply.code(204).send();
  });
  registerEndpoint(app, ep('positions.deleteOne'), async (req, reply) => {
    await deletion.one(req.params.id, actorOf(req));
    return reply.code(204).send();
  });
}
