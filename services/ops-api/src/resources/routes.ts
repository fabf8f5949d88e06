import type { z } from 'zod';
import type { EndpointDef } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import type { ResourceService } from './resource-service';
import type { Actor } from './scope';

type Five = readonly [EndpointDef, EndpointDef, EndpointDef, EndpointDef, EndpointDef];
type BodyOf<D extends EndpointDef> = D['request'] extends { body: infer B } ? (B extends z.ZodTypeAny ? z.output<B> : never) : never;
type QueryOf<D extends EndpointDef> = D['request'] extends { query: infer Q } ? (Q extends z.ZodTypeAny ? z.output<Q> : never) : never;
type EntityOf<D extends EndpointDef> = D['responses'] extends { 200: { schema: infer S } }
  ? S extends z.ZodTypeAny
    ? z.input<S>
    : never
  : never;

/** The caller and request id of a request (routes pass it to services that audit). */
export const actorOf = (req: { identity?: Actor['identity']; id: string }): Actor => ({ identity: req.identity!, requestId: req.id });

/** Registers the five CRUD endpoints of a resource (Traccar's pattern) on a resource service. */
export function resourceRoutes<E extends Five>(
  app: App,
  endpoints: E,
  svc: ResourceService<EntityOf<E[2]>, BodyOf<E[1]>, QueryOf<E[0]>>,
): void {
  const [list, create, get, update, remove] = endpoints;
  type R = { identity?: Actor['identity']; id: string; params: { id: number }; query: never; body: never };
  registerEndpoint(app, list, (async (req: R) => svc.list(req.query, req.identity!)) as never);
  registerEndpoint(app, create, (async (req: R) => svc.create(req.body, actorOf(req))) as never);
  registerEndpoint(app, get, (async (req: R) => svc.get(req.params.id, req.identity!)) as never);
  registerEndpoint(app, update, (async (req: R) => svc.update(req.params.id, req.body, actorOf(req))) as never);
  registerEndpoint(app, remove, (async (req: R, reply: { code(n: number): { send(): unknown } }) => {
    await svc.remove(req.params.id, actorOf(req));
    return reply.code(204).send();
  }) as never);
}

/** The three endpoints of links kept in an entry's own fields (list, link, unlink), as ops-api's /…/links. */
type LinkTriple = readonly [EndpointDef, EndpointDef, EndpointDef];
export interface EntryLinks<L, Q> {
  list(q: Q, who: Actor['identity']): Promise<L[]>;
  link(links: readonly L[], actor: Actor): Promise<void>;
  unlink(links: readonly L[], actor: Actor): Promise<void>;
}

/** Registers GET/POST/DELETE of an entry kind's links (Traccar permissions the gateway forwards to ops-api). */
export function linkRoutes<L, Q>(app: App, [list, create, remove]: LinkTriple, links: EntryLinks<L, Q>): void {
  type R = { identity?: Actor['identity']; id: string; query: Q; body: L[] };
  type Reply = { code(n: number): { send(): unknown } };
  registerEndpoint(app, list, (async (req: R) => links.list(req.query, req.identity!)) as never);
  registerEndpoint(app, create, (async (req: R, reply: Reply) => {
    await links.link(req.body, actorOf(req));
    return reply.code(204).send();
  }) as never);
  registerEndpoint(app, remove, (async (req: R, reply: Reply) => {
    await links.unlink(req.body, actorOf(req));
    return reply.code(204).send();
  }) as never);
}
