import { usersEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { actorOf } from '../audit/audit';
import type { ClientIp } from '../protection/client-ip';
import type { UsersService } from './service';

const [list, create, get, update, remove] = usersEndpoints;
const [, , , , , , , , , , unlock] = usersEndpoints;

export function userRoutes(app: App, svc: UsersService, clientIp: ClientIp): void {
  registerEndpoint(app, list, async (req) => svc.list(req.query));
  registerEndpoint(app, create, async (req) => svc.create(req.body, actorOf(req)));
  registerEndpoint(app, get, async (req) => svc.get(req.params.id, req.identity!));
  registerEndpoint(app, update, async (req) =>
    svc.update(req.params.id, req.body, req.identity!, actorOf(req), {
      sessionId: req.auth?.sessionId,
      via: req.auth?.via,
      ip: clientIp(req),
    }),
  );
  registerEndpoint(app, remove, async (req, reply) => {
    await svc.remove(req.params.id, actorOf(req));
    return reply.code(204).send();
  });
  registerEndpoint(app, unlock, async (req, reply) => {
    await svc.unlock(req.params.id, actorOf(req));
    return reply.code(204).send();
  });
}
