import { driversEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { DriversService } from './service';

export function driverRoutes(app: App, svc: DriversService): void {
  resourceRoutes(app, driversEndpoints, svc);
}
