import { usersEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { actorOf } from '../audit/audit';
import type { PasswordService } from './service';

const [, , , , , resetEndpoint, updateEndpoint] = usersEndpoints;

export function passwordRoutes(app: App, svc: PasswordService): void {
  registerEndpoint(app, resetEndpoint, async (req, reply) => {
    await svc.requestReset(req.body.email, actorOf(req));
    return reply.code(200).send();
  });
  registerEndpoint(app, updateEndpoint, async (req, reply) => {
    await svc.reset(req.body.token, req.body.password, actorOf(req));
    return reply.code(200).send();
  });
}
