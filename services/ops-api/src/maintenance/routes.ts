import { maintenanceEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { MaintenanceService } from './service';

const [list, create, get, update, remove, schedule] = maintenanceEndpoints;

export function maintenanceRoutes(app: App, svc: MaintenanceService): void {
  // at the specification's path /maintenance-schedule (it was /maintenance/schedule)
  registerEndpoint(app, schedule, async (req) => svc.schedule(req.query, req.identity!));
  resourceRoutes(app, [list, create, get, update, remove], svc);
}
