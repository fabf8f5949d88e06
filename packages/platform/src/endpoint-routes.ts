import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { fastifyPath, type EndpointDef } from '@corridor/contracts';
import type { App } from './app';
import { checkAccess } from './identity';
import { checkReferences, trackReferences } from './references';

type Out<T> = T extends z.ZodTypeAny ? z.output<T> : undefined;
type In<T> = T extends z.ZodTypeAny ? z.input<T> : never;
type Req<D extends EndpointDef> = FastifyRequest<{
  Params: D['request'] extends { params: infer P } ? Out<P> : unknown;
  Querystring: D['request'] extends { query: infer Q } ? Out<Q> : unknown;
  Body: D['request'] extends { body: infer B } ? Out<B> : unknown;
}>;
type SuccessBody<D extends EndpointDef> = {
  [S in keyof D['responses']]: D['responses'][S] extends { schema: infer R } ? (R extends z.ZodTypeAny ? In<R> : undefined) : never;
}[keyof D['responses']];

export type EndpointHandler<D extends EndpointDef> = (req: Req<D>, reply: FastifyReply) => Promise<SuccessBody<D> | FastifyReply | void>;

/**
 * Registers a route exactly as its contract entry says: method, path, zod schemas for params,
 * query and body, and the success response schema (responses are checked against the contract).
 */
export function registerEndpoint<D extends EndpointDef>(app: App, def: D, handler: EndpointHandler<D>): void {
  const response: Record<number, z.ZodTypeAny> = {};
  for (const [status, r] of Object.entries(def.responses)) if (r.schema && !r.contentType) response[Number(status)] = r.schema;
  const references = trackReferences(app, def);
  const bodySchema = def.request?.body;
  app.route({
    method: def.method.toUpperCase() as 'GET',
    url: fastifyPath(def),
    config: { endpointId: def.id },
    // the contract's access rule, checked before validation so a stranger learns nothing from 400s
    onRequest: async (req) => checkAccess(def.access, req.identity),
    // every id the request carries, checked against the caller's company before the handler runs
    preHandler: async (req) => {
      if (!references) return;
      // a body the route parses itself (another content type) is checked as far as it parses here
      const body = def.request?.bodyContentType ? bodySchema?.safeParse(req.body).data : req.body;
      await checkReferences(app, def, { identity: req.identity, params: req.params, query: req.query, body });
    },
    schema: {
      ...(def.request?.params ? { params: def.request.params } : {}),
      ...(def.request?.query ? { querystring: def.request.query } : {}),
      ...(def.request?.body && !def.request.bodyContentType ? { body: def.request.body } : {}),
      ...(Object.keys(response).length ? { response } : {}),
    },
    handler: handler as never,
  });
}
