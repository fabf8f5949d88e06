import type { OpsModule } from '../module';
import { eventFigures } from './event-figures';
import { dashboardRepository } from './repository';
import { dashboardRoutes } from './routes';
import { dashboardService } from './service';

/** The dashboards' figures: their service and routes. */
export const dashboardsModule: OpsModule<object, void> = (app, { base }) => {
  dashboardRoutes(app, dashboardService({ repo: dashboardRepository(base.db), events: eventFigures(base.analytics), clock: base.clock }));
};
