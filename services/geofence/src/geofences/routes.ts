import { geofenceLinksEndpoints, geofencesEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import type { FastifyRequest } from 'fastify';
import type { GeofencePermissions } from './permission-links';
import type { Actor, GeofencesService } from './service';

const [list, create, , get, update, remove, linksList, linksCreate, linksDelete] = geofencesEndpoints;

const actor = (req: FastifyRequest): Actor => ({ identity: req.identity!, requestId: req.id });

/** /geofences CRUD in Traccar's shape, the device/group links, and Traccar's permissions of those links (/links/geofences). */
export function geofenceRoutes(app: App, svc: GeofencesService, permissions: GeofencePermissions): void {
  registerEndpoint(app, list, async (req) => svc.list(req.query, req.identity!));
  registerEndpoint(app, create, async (req) => svc.create(req.body, actor(req)));
  registerEndpoint(app, get, async (req) => svc.get(req.params.id));
  registerEndpoint(app, update, async (req) => svc.update(req.params.id, req.body, actor(req)));
  registerEndpoint(app, remove, async (req, reply) => {
    await svc.remove(req.params.id, actor(req));
    return reply.code(204).send();
  });
  registerEndpoint(app, linksList, async (req) => svc.links(req.params.id));
  registerEndpoint(app, linksCreate, async (req) => svc.link(req.params.id, req.body, actor(req)));
  registerEndpoint(app, linksDelete, async (req, reply) => {
    await svc.unlink(req.params.id, req.body, actor(req));
    return reply.code(204).send();
  });
  const [permList, permCreate, permDelete] = geofenceLinksEndpoints;
  registerEndpoint(app, permList, async (req) => permissions.list(req.query, req.identity!));
  registerEndpoint(app, permCreate, async (req, reply) => {
    await permissions.link(req.body, actor(req));
    return reply.code(204).send();
  });
  registerEndpoint(app, permDelete, async (req, reply) => {
    await permissions.unlink(req.body, actor(req));
    return reply.code(204).send();
  });
}
