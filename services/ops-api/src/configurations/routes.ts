import { configurationsEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { ConfigurationsService } from './service';

export function configurationRoutes(app: App, svc: ConfigurationsService): void {
  resourceRoutes(app, configurationsEndpoints, svc);
}
