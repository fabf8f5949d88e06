import { computedAttributesEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { resourceRoutes } from '../resources/routes';
import type { ComputedAttributesService } from './service';

const [list, create, get, update, remove, test] = computedAttributesEndpoints;

export function computedAttributeRoutes(app: App, svc: ComputedAttributesService): void {
  resourceRoutes(app, [list, create, get, update, remove], svc);
  registerEndpoint(app, test, async (req, reply) => {
    const value = await svc.test(req.query.deviceId, req.body, req.identity!);
    // a bare JSON value, as Traccar answers it (a string too is JSON-quoted); none: 204
    return value === null ? reply.code(204).send() : reply.type('application/json').send(JSON.stringify(value));
  });
}
