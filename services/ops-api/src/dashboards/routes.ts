import { dashboardsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import type { DashboardService } from './service';

const [kenya, tanzania] = dashboardsEndpoints;

export function dashboardRoutes(app: App, svc: DashboardService): void {
  registerEndpoint(app, kenya, async (req) => svc.dashboard('KE', req.query));
  registerEndpoint(app, tanzania, async (req) => svc.dashboard('TZ', req.query));
}
