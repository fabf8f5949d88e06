import { draftsEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { DraftsService } from './service';

export function draftRoutes(app: App, svc: DraftsService): void {
  resourceRoutes(app, draftsEndpoints, svc);
}
