import { reportLinksEndpoints, scheduledReportsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { linkRoutes, resourceRoutes } from '../resources/routes';
import type { ReportLinks } from './links';
import type { ScheduledReportsService } from './service';

/** /reports CRUD (Traccar's scheduled reports), /reports/{id}/runs and the reports' links (/reports/links). */
export function scheduledReportRoutes(app: App, svc: ScheduledReportsService, links: ReportLinks): void {
  const [list, create, get, update, remove, runs] = scheduledReportsEndpoints;
  const [linksList, linksCreate, linksDelete] = reportLinksEndpoints;
  resourceRoutes(app, [list, create, get, update, remove] as const, svc);
  registerEndpoint(app, runs, async (req) => svc.runs(req.params.id, req.query, req.identity!));
  linkRoutes(app, [linksList, linksCreate, linksDelete], links);
}
