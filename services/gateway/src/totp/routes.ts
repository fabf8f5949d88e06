import { usersEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { actorOf } from '../audit/audit';
import type { ClientIp } from '../protection/client-ip';
import type { TotpService } from './service';

const [, , , , , , , generate, confirm, remove, , disable] = usersEndpoints;

/** TOTP enrolment and turning it off (the caller's own), and removal (administrators). */
export function totpRoutes(app: App, svc: TotpService, clientIp: ClientIp): void {
  registerEndpoint(app, generate, async (req, reply) => {
    const secret = await svc.start(req.identity!.userId);
    return reply.code(200).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(secret);
  });
  registerEndpoint(app, confirm, async (req) => svc.confirm(req.identity!.userId, req.body.code, actorOf(req)));
  registerEndpoint(app, disable, async (req) => svc.disable(req.identity!.userId, req.body, actorOf(req), clientIp(req)));
  registerEndpoint(app, remove, async (req, reply) => {
    await svc.remove(req.params.id, actorOf(req));
    return reply.code(204).send();
  });
}
