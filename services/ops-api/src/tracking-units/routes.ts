import { trackingUnitsEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { TrackingUnitsService } from './service';

export function trackingUnitRoutes(app: App, svc: TrackingUnitsService): void {
  resourceRoutes(app, trackingUnitsEndpoints, svc);
}
