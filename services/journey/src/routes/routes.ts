import { routesEndpoints } from '@corridor/contracts';
import { companyScope, registerEndpoint, type App } from '@corridor/platform';
import type { RoutesService } from './service';

const [list, create, get, update, remove] = routesEndpoints;

/** /api/routes: corridor route CRUD, as the contract says. */
export function routeRoutes(app: App, svc: RoutesService): void {
  registerEndpoint(app, list, async (req) =>
    svc.list({
      ids: req.query.id,
      company: companyScope(req.identity!),
      keyword: req.query.keyword,
      country: req.query.country,
      limit: req.query.limit,
      offset: req.query.offset,
    }),
  );
  registerEndpoint(app, create, async (req) => svc.create(req.body, req.identity!, req.id));
  registerEndpoint(app, get, async (req) => svc.get(req.params.id));
  registerEndpoint(app, update, async (req) => svc.update(req.params.id, req.body, req.identity!, req.id));
  registerEndpoint(app, remove, async (req, reply) => {
    await svc.remove(req.params.id, req.identity!, req.id);
    return reply.code(204).send();
  });
}
