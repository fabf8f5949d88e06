import { journeysEndpoints, type JourneysQuery } from '@corridor/contracts';
import { registerEndpoint, type App, type Identity } from '@corridor/platform';
import type { FlagsService } from '../flags/service';
import { journeyScope } from './access';
import type { JourneyFilter } from './repository';
import type { JourneysService } from './service';

const [create, active, flagged, completed, get, cancel, acknowledge, resolve] = journeysEndpoints;

const filterOf = (q: JourneysQuery, caller: Identity): JourneyFilter => ({
  companyIds: q.companyId,
  routeIds: q.routeId,
  deviceIds: q.deviceId,
  country: q.country,
  flagTypes: q.flagType,
  from: q.from ? new Date(q.from) : undefined,
  to: q.to ? new Date(q.to) : undefined,
  scope: journeyScope(caller),
  limit: q.limit,
  offset: q.offset,
});

/** /api/journey*: declaration, lists, detail, cancellation and the flag review endpoints. */
export function journeyRoutes(app: App, svc: JourneysService, flagsSvc: FlagsService): void {
  registerEndpoint(app, create, async (req) => svc.create(req.body, req.identity!, req.id));
  registerEndpoint(app, active, async (req) => svc.list('active', filterOf(req.query, req.identity!)));
  registerEndpoint(app, flagged, async (req) => svc.list('flagged', filterOf(req.query, req.identity!)));
  registerEndpoint(app, completed, async (req) => svc.list('completed', filterOf(req.query, req.identity!)));
  registerEndpoint(app, get, async (req) => svc.detail(req.params.id, req.identity!, req.query.trackLimit));
  registerEndpoint(app, cancel, async (req) => svc.cancel(req.params.id, req.body.reason ?? null, req.identity!, req.id));
  registerEndpoint(app, acknowledge, async (req) => flagsSvc.acknowledge(req.params.flagId, req.body.note ?? null, req.identity!, req.id));
  registerEndpoint(app, resolve, async (req) => flagsSvc.resolve(req.params.flagId, req.body.note, req.identity!, req.id));
}
