import { objectLinksEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { linkRoutes } from '../resources/routes';
import type { ObjectLinksService } from './service';

/** /links/objects: Traccar's links of drivers, computed attributes, saved commands, maintenance and calendars. */
export function objectLinkRoutes(app: App, svc: ObjectLinksService): void {
  const [list, create, remove] = objectLinksEndpoints;
  linkRoutes(app, [list, create, remove], svc);
}
