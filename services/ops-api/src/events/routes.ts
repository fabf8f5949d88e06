import { eventsEndpoints } from '@corridor/contracts';
import {
  addressedEvent,
  AppError,
  companyScope,
  notFound,
  queryEvents,
  registerEndpoint,
  toApiEvent,
  type Analytics,
  type App,
  type Geocoder,
} from '@corridor/platform';
import type { DevicesRepository } from '../devices/repository';
import { eventById } from './repository';

const [list, get] = eventsEndpoints;
const bad = (path: string, message: string) =>
  new AppError('VALIDATION_FAILED', `query.${path}: ${message}`, [{ in: 'querystring', path, message }]);

/** GET /events (by device or group and period) and GET /events/{id}, from ClickHouse, company-scoped by device, with the offline address of each. */
export function eventRoutes(app: App, deps: { analytics: Analytics; devices: DevicesRepository; geocoder: Geocoder }): void {
  const byId = eventById(deps.analytics);
  const byDevices = queryEvents(deps.analytics);

  registerEndpoint(app, list, async (req) => {
    const q = req.query;
    if (!q.deviceId?.length && q.groupId === undefined) throw bad('deviceId', 'give deviceId (repeatable) or groupId');
    const from = new Date(q.from);
    const to = new Date(q.to);
    if (from > to) throw bad('from', 'must not be after to');
    const visible = await deps.devices.list({
      ids: q.deviceId,
      groupIds: q.groupId !== undefined ? [q.groupId] : undefined,
      companyId: companyScope(req.identity!),
      limit: 10000,
      offset: 0,
    });
    if (!visible.length) return [];
    return (await byDevices({ deviceIds: visible.map((d) => d.id), from, to, types: q.type, limit: q.limit })).map((e) =>
      addressedEvent(deps.geocoder, toApiEvent(e)),
    );
  });

  registerEndpoint(app, get, async (req) => {
    const event = await byId(req.params.id);
    const scope = companyScope(req.identity!);
    if (!event) throw notFound('Event', req.params.id);
    if (scope !== undefined) {
      const device = await deps.devices.get(event.deviceId);
      if (!device || device.companyId !== scope) throw notFound('Event', req.params.id);
    }
    return addressedEvent(deps.geocoder, toApiEvent(event));
  });
}
