import { devicesEndpoints } from '@corridor/contracts';
import { companyScope, registerEndpoint, type App } from '@corridor/platform';
import type { DevicesService } from './service';
import { ownedDevice } from './extra-routes';
import { actorOf } from '../resources/routes';

const [list, create, get, update, remove] = devicesEndpoints;

export function deviceRoutes(app: App, svc: DevicesService): void {
  registerEndpoint(app, list, async (req) =>
    svc.list({
      ids: req.query.id,
      uniqueIds: req.query.uniqueId,
      keyword: req.query.keyword,
      status: req.query.status,
      companyId: companyScope(req.identity!),
      limit: req.query.limit,
      offset: req.query.offset,
    }),
  );
  registerEndpoint(app, create, async (req) => svc.create(ownedDevice(req.body, req.identity!), actorOf(req)));
  registerEndpoint(app, get, async (req) => svc.get(req.params.id, companyScope(req.identity!)));
  registerEndpoint(app, update, async (req) => {
    await svc.get(req.params.id, companyScope(req.identity!)); // another company's device is not found
    return svc.update(req.params.id, ownedDevice(req.body, req.identity!), actorOf(req));
  });
  registerEndpoint(app, remove, async (req, reply) => {
    await svc.remove(req.params.id, actorOf(req));
    return reply.code(204).send();
  });
}
