import { Transform } from 'node:stream';
import replyFrom from '@fastify/reply-from';
import { allEndpoints, fastifyPath, type EndpointDef, type ErrorCode } from '@corridor/contracts';
import { AppError, IDENTITY_HEADER, checkAccess, counter, errorBody, signIdentity, type App, type InternalKeys } from '@corridor/platform';
import type { Upstreams } from './upstreams';

const upstreamErrors = counter('gateway_upstream_errors_total', 'Proxied requests that failed upstream', ['service', 'kind']);

/** How an upstream failure answers: down (refused, unresolvable) 503, too slow 504, anything else 502. */
function classifyUpstreamError(error: { code?: string; message: string }): { status: 502 | 503 | 504; code: ErrorCode; kind: string } {
  const code = error.code ?? '';
  if (/TIMEOUT|ETIMEDOUT/i.test(code) || /timeout/i.test(error.message)) return { status: 504, code: 'GATEWAY_TIMEOUT', kind: 'timeout' };
  if (
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CLOSED|UND_ERR_DESTROYED/.test(code) ||
    /ECONNREFUSED/.test(error.message)
  ) {
    return { status: 503, code: 'UNAVAILABLE', kind: 'unreachable' };
  }
  return { status: 502, code: 'BAD_GATEWAY', kind: 'bad_response' };
}

/** Requests whose streamed body went over their limit (their upstream call fails; they answer 413). */
const tooLarge = new WeakMap<object, number>();

/** Passes a streamed body through, cutting it off once it exceeds the limit (chunked bodies declare no length). */
function limited(max: number, onExceeded: () => void): Transform {
  let seen = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      if (seen <= max) return done(null, chunk);
      onExceeded();
      done(new Error(`body larger than ${max} bytes`));
    },
  });
  // the error reaches the upstream call through the body stream; nobody else needs to hear it
  t.on('error', () => undefined);
  return t;
}

/**
 * Forwards every contract endpoint owned by another service to that service. The contract's access
 * rule is checked here first (401/403 never reach a service); credentials (authorization, cookie)
 * stay here and the caller's identity travels as a short-lived signed token. Bodies are streamed
 * through unparsed: uploads (multipart) up to bodyLimit, anything else up to otherBodyLimit, the
 * services' own limit, so an oversized body answers 413 here instead of the service cutting the
 * stream (which reached the client as 502). Only idempotent methods are retried (connection failures).
 */
export async function proxyRoutes(
  app: App,
  opts: {
    upstreams: Upstreams;
    timeoutMs: number;
    identitySecret: InternalKeys;
    bodyLimit: number;
    otherBodyLimit: number;
    endpoints?: readonly EndpointDef[];
  },
): Promise<void> {
  const limitOf = (contentType: string | undefined): number =>
    /^multipart\//i.test(contentType ?? '') ? opts.bodyLimit : Math.min(opts.otherBodyLimit, opts.bodyLimit);
  const tooLargeError = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', `Body larger than ${limit} bytes`, { limit });
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { bodyLimit: opts.bodyLimit }, (req, payload, done) => {
      const limit = limitOf(req.headers['content-type']);
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > limit) return done(tooLargeError(limit), undefined);
      done(null, payload.pipe(limited(limit, () => tooLarge.set(req.raw, limit))));
    });
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
        onRequest: async (req) => checkAccess(def.access, req.identity),
        handler: async (req, reply) => {
          // the caller's identity travels as a short-lived signed token for that service only; credentials stay here
          const { authorization: _a, cookie: _c, [IDENTITY_HEADER]: _i, ...forwarded } = req.headers;
          const identity = req.identity ? await signIdentity(req.identity, opts.identitySecret, def.service) : undefined;
          return reply.from(upstream + req.url, {
            timeout: opts.timeoutMs,
            retriesCount: def.method === 'get' ? 1 : 0,
            rewriteRequestHeaders: () => ({ ...forwarded, 'x-request-id': req.id, ...(identity ? { [IDENTITY_HEADER]: identity } : {}) }),
            onError: (rep, { error }) => {
              const limit = tooLarge.get(req.raw);
              if (limit !== undefined) {
                // the rest of the body is not read: this connection cannot carry another request
                void rep
                  .code(413)
                  .header('connection', 'close')
                  .send(errorBody('PAYLOAD_TOO_LARGE', `Body larger than ${limit} bytes`, { limit }));
                return;
              }
              const e = error as { code?: string; message: string };
              const c = classifyUpstreamError(e);
              upstreamErrors.inc({ service: def.service, kind: c.kind });
              req.log.warn({ service: def.service, code: e.code, err: e.message }, 'upstream failed');
              const message =
                c.status === 504
                  ? `${def.service} did not answer in time`
                  : c.status === 503
                    ? `${def.service} is unavailable`
                    : `${def.service} answered badly`;
              void rep.code(c.status).send(errorBody(c.code, message));
            },
          });
        },
      });
    }
  });
}
