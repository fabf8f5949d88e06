import { ratingsEndpoints } from '@corridor/contracts';
import { companyScope, registerEndpoint, type App } from '@corridor/platform';
import type { RatingsService } from './service';

const [list, stats] = ratingsEndpoints;

export function ratingRoutes(app: App, svc: RatingsService): void {
  registerEndpoint(app, list, async (req) => svc.list(req.query, companyScope(req.identity!)));
  registerEndpoint(app, stats, async (req) => svc.stats(req.query));
}
