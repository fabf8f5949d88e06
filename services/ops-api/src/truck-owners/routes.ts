import { truckOwnersEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { TruckOwnersService } from './service';

const [list, create, get, update, remove, trucksOwners] = truckOwnersEndpoints;

export function truckOwnerRoutes(app: App, svc: TruckOwnersService): void {
  resourceRoutes(app, [list, create, get, update, remove], svc);
  registerEndpoint(app, trucksOwners, async (req) => svc.trucksWithOwners(req.query, req.identity!));
}
