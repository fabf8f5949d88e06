import { statisticsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type Analytics, type App } from '@corridor/platform';
import { statisticsService } from './service';

const [get] = statisticsEndpoints;

export function statisticsRoutes(app: App, analytics: Analytics): void {
  const statistics = statisticsService(analytics);
  registerEndpoint(app, get, async (req) => statistics(req.query.from, req.query.to));
}
