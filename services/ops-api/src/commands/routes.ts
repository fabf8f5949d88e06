import { commandsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { actorOf, resourceRoutes } from '../resources/routes';
import type { CommandsService } from './service';

const [list, create, get, update, remove, types, sendable, send] = commandsEndpoints;

export function commandRoutes(app: App, svc: CommandsService): void {
  resourceRoutes(app, [list, create, get, update, remove], svc);
  registerEndpoint(app, types, async (req) => svc.types(req.query.deviceId, req.identity!));
  registerEndpoint(app, sendable, async (req) => svc.sendable(req.query.deviceId, req.identity!));
  registerEndpoint(app, send, async (req, reply) => reply.code(202).send(await svc.send(req.body, actorOf(req))));
}
