import { calendarsEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { CalendarsService } from './service';

export function calendarRoutes(app: App, svc: CalendarsService): void {
  resourceRoutes(app, calendarsEndpoints, svc);
}
