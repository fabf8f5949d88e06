import { inventoriesEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { actorOf, resourceRoutes } from '../resources/routes';
import type { InventoriesService } from './service';

const [list, create, get, update, remove, assign, revoke, transfer, history] = inventoriesEndpoints;

export function inventoryRoutes(app: App, svc: InventoriesService): void {
  resourceRoutes(app, [list, create, get, update, remove], svc);
  registerEndpoint(app, assign, async (req) => svc.assign(req.params.id, req.body, actorOf(req)));
  registerEndpoint(app, revoke, async (req) => svc.revoke(req.params.id, req.body, actorOf(req)));
  registerEndpoint(app, transfer, async (req) => svc.transfer(req.params.id, req.body, actorOf(req)));
  registerEndpoint(app, history, async (req) => svc.history(req.params.id, req.identity!));
}
