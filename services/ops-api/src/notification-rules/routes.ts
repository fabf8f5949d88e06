import { notificationRulesEndpoints, trackingWriters } from '@corridor/contracts';
import { checkAccess, registerEndpoint, type App } from '@corridor/platform';
import { actorOf, linkRoutes, resourceRoutes } from '../resources/routes';
import type { DirectSend } from './direct-send';
import type { NotificationLinks } from './links';
import type { NotificationRulesService } from './service';

const [list, create, get, update, remove, types, notificators, test, testChannel, send, linksList, linksCreate, linksDelete] = notificationRulesEndpoints;

/** Traccar's NotificationResource: /notifications (rules), /types, /notificators, /test, /test/{notificator}, /send/{notificator}; and the rules' links. */
export function notificationRuleRoutes(app: App, svc: NotificationRulesService, direct: DirectSend, links: NotificationLinks): void {
  resourceRoutes(app, [list, create, get, update, remove], svc);
  registerEndpoint(app, types, async () => svc.types());
  registerEndpoint(app, notificators, async (req) => svc.notificators(req.query.announcement));
  registerEndpoint(app, test, async (req) => {
    if (!req.body) return direct.testCaller(actorOf(req));
    // a rule's test reaches its recipients and webhook: the roles that write rules only
    checkAccess(trackingWriters, req.identity);
    return svc.test(req.body.ruleId, actorOf(req));
  });
  registerEndpoint(app, testChannel, async (req) => direct.testCaller(actorOf(req), req.params.notificator));
  registerEndpoint(app, send, async (req) => direct.announce(actorOf(req), req.params.notificator, req.query.userId ?? [], req.body));
  linkRoutes(app, [linksList, linksCreate, linksDelete], links);
}
