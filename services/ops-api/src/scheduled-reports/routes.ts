import { scheduledReportsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { ScheduledReportsService } from './service';

/** /reports CRUD (Traccar's scheduled reports) and /reports/{id}/runs. */
export function scheduledReportRoutes(app: App, svc: ScheduledReportsService): void {
  const [list, create, get, update, remove, runs] = scheduledReportsEndpoints;
  resourceRoutes(app, [list, create, get, update, remove] as const, svc);
  registerEndpoint(app, runs, async (req) => svc.runs(req.params.id, req.query, req.identity!));
}
