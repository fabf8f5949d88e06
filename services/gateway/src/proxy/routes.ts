import replyFrom from '@fastify/reply-from';
import { allEndpoints, fastifyPath, type EndpointDef } from '@corridor/contracts';
import { IDENTITY_HEADER, counter, errorBody, signIdentity, type App } from '@corridor/platform';
import type { Upstreams } from './upstreams';

const upstreamErrors = counter('gateway_upstream_errors_total', 'Proxied requests that failed upstream', ['service', 'kind']);

/**
 * Forwards every contract endpoint owned by another service to that service. Bodies are streamed
 * through unparsed. Only idempotent methods are retried (connection failures); a service that is
 * down answers 503, one that is too slow 504, both in the one error shape.
 */
export async function proxyRoutes(app: App, opts: { upstreams: Upstreams; timeoutMs: number; identitySecret: string; endpoints?: readonly EndpointDef[] }): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));
    await scope.register(replyFrom, {
      retryMethods: ['GET', 'HEAD', 'OPTIONS'],
      maxRetriesOn503: 0,
      undici: { connections: 64, pipelining: 1, headersTimeout: opts.timeoutMs, bodyTimeout: opts.timeoutMs, connect: { timeout: 2000 } },
    });
    for (const def of opts.endpoints ?? allEndpoints) {
      if (def.service === 'gateway') continue;
      const upstream = opts.upstreams[def.service];
      scope.route({
        method: def.method.toUpperCase() as 'GET',
        url: fastifyPath(def),
        config: { endpointId: def.id },
        handler: async (req, reply) => {
          // the caller's identity travels as a short-lived signed token; credentials stay here
          const { authorization: _a, cookie: _c, [IDENTITY_HEADER]: _i, ...forwarded } = req.headers;
          const identity = req.identity ? await signIdentity(req.identity, opts.identitySecret) : undefined;
          return reply.from(upstream + req.url, {
            timeout: opts.timeoutMs,
            retriesCount: def.method === 'get' ? 1 : 0,
            rewriteRequestHeaders: () => ({ ...forwarded, 'x-request-id': req.id, ...(identity ? { [IDENTITY_HEADER]: identity } : {}) }),
            onError: (rep, { error }) => {
              const code = (error as { code?: string }).code ?? '';
              const timedOut = /TIMEOUT|ETIMEDOUT/i.test(code) || /timeout/i.test(error.message);
              upstreamErrors.inc({ service: def.service, kind: timedOut ? 'timeout' : 'unreachable' });
              req.log.warn({ service: def.service, code, err: error.message }, 'upstream failed');
              void rep
                .code(timedOut ? 504 : 503)
                .send(errorBody(timedOut ? 'GATEWAY_TIMEOUT' : 'UNAVAILABLE', timedOut ? `${def.service} did not answer in time` : `${def.service} is unavailable`));
            },
          });
        },
      });
    }
  });
}
