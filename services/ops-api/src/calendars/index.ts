import type { OpsModule } from '../module';
import { calendarRoutes } from './routes';
import { calendarsService } from './service';

/** Calendars: their service and routes; published at start for the services that schedule by them. */
export const calendarsModule: OpsModule<object, void> = (app, { base, life }) => {
  const calendars = calendarsService({ db: base.db, cache: base.cache, logger: base.logger.child({ module: 'calendars' }) });
  calendarRoutes(app, calendars);
  life.onStart(() => calendars.publish());
};
