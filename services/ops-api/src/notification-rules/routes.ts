import { notificationRulesEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { actorOf, resourceRoutes } from '../resources/routes';
import type { NotificationRulesService } from './service';

const [list, create, get, update, remove, types, notificators, test] = notificationRulesEndpoints;

export function notificationRuleRoutes(app: App, svc: NotificationRulesService): void {
  resourceRoutes(app, [list, create, get, update, remove], svc);
  registerEndpoint(app, types, async () => svc.types());
  registerEndpoint(app, notificators, async (req) => svc.notificators(req.query.announcement));
  registerEndpoint(app, test, async (req) => svc.test(req.body.ruleId, actorOf(req)));
}
