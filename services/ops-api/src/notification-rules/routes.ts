import { notificationRulesEndpoints, trackingWriters, type NotificationDelivery } from '@corridor/contracts';
import { AppError, checkAccess, registerEndpoint, type App } from '@corridor/platform';
import type { FastifyReply } from 'fastify';
import { actorOf, linkRoutes, resourceRoutes } from '../resources/routes';
import type { DirectSend } from './direct-send';
import type { NotificationLinks } from './links';
import type { NotificationRulesService } from './service';

const [list, create, get, update, remove, types, notificators, test, testChannel, send, linksList, linksCreate, linksDelete] =
  notificationRulesEndpoints;

/** Traccar's answer to a test or a message: nothing when every delivery went out, 400 when one failed (the deliveries in details). */
function delivered(reply: FastifyReply, deliveries: NotificationDelivery[]): FastifyReply {
  const failed = deliveries.filter((d) => d.status === 'failed');
  if (failed.length) {
    throw new AppError(
      'NOT_DELIVERED',
      `Not delivered: ${failed.map((d) => `${d.channel} to ${d.recipient} (${d.error ?? 'failed'})`).join(', ')}`,
      { deliveries },
    );
  }
  return reply.code(204).send();
}

/** Traccar's NotificationResource: /notifications (rules), /types, /notificators, /test, /test/{notificator}, /send/{notificator}; and the rules' links. */
export function notificationRuleRoutes(app: App, svc: NotificationRulesService, direct: DirectSend, links: NotificationLinks): void {
  resourceRoutes(app, [list, create, get, update, remove], svc);
  registerEndpoint(app, types, async () => svc.types());
  registerEndpoint(app, notificators, async (req) => svc.notificators(req.query.announcement));
  registerEndpoint(app, test, async (req, reply) => {
    if (!req.body) return delivered(reply, await direct.testCaller(actorOf(req)));
    // a rule's test reaches its recipients and webhook: the roles that write rules only
    checkAccess(trackingWriters, req.identity);
    return delivered(reply, await svc.test(req.body.ruleId, actorOf(req)));
  });
  registerEndpoint(app, testChannel, async (req, reply) => delivered(reply, await direct.testCaller(actorOf(req), req.params.notificator)));
  registerEndpoint(app, send, async (req, reply) =>
    delivered(reply, await direct.announce(actorOf(req), req.params.notificator, req.query.userId ?? [], req.body)),
  );
  linkRoutes(app, [linksList, linksCreate, linksDelete], links);
}
