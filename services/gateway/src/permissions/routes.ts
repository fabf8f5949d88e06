import { permissionsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { actorOf } from '../audit/audit';
import type { PermissionsService } from './service';

const [list, create, remove, bulkCreate, bulkRemove] = permissionsEndpoints;

export function permissionRoutes(app: App, svc: PermissionsService): void {
  registerEndpoint(app, list, async (req) => svc.list(req.query, req.identity!));
  registerEndpoint(app, create, async (req, reply) => {
    await svc.link(req.body, actorOf(req), req.identity!);
    return reply.code(204).send();
  });
  registerEndpoint(app, remove, async (req, reply) => {
    await svc.unlink(req.body, actorOf(req), req.identity!);
    return reply.code(204).send();
  });
  registerEndpoint(app, bulkCreate, async (req, reply) => {
    await svc.linkMany(req.body, actorOf(req), req.identity!);
    return reply.code(204).send();
  });
  registerEndpoint(app, bulkRemove, async (req, reply) => {
    await svc.unlinkMany(req.body, actorOf(req), req.identity!);
    return reply.code(204).send();
  });
}
