import { groupsEndpoints } from '@corridor/contracts';
import type { App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { GroupsService } from './service';

export function groupRoutes(app: App, svc: GroupsService): void {
  resourceRoutes(app, groupsEndpoints, svc);
}
