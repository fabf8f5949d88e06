import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyInstance, type FastifyBaseLogger, type RawServerDefault } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { ErrorCode } from '@corridor/contracts';
import { AppError } from './errors';
import { IDENTITY_HEADER, verifyIdentity, type InternalKeys } from './identity';
import type { Logger } from './logger';
import { counter, histogram, processMetrics, registry } from './metrics';
import { installReferences } from './references';
import { refuseUnstorableInput } from './unstorable-input';
import type { ReadinessReport } from './bus-readiness';

export type App = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse, FastifyBaseLogger, ZodTypeProvider>;

export interface CreateAppOptions {
  name: string;
  logger: Logger;
  /**
   * Checked by /readyz: each must resolve (and, when it resolves to a report, to a ready one) for
   * the service to be ready; /readyz?verbose adds each report's details.
   */
  readiness?: Record<string, () => Promise<void | ReadinessReport>>;
  bodyLimit?: number;
  /** Expose /healthz, /readyz and /metrics (false for a secondary listener such as a device port). */
  ops?: boolean;
  /** With ops: also /metrics (default). false for a public port: serve them with createMetricsApp on a port of their own. */
  metrics?: boolean;
  /**
   * Verify the gateway's x-corridor-identity token with these keys (audience: `name`) and set
   * req.identity. Endpoints registered with registerEndpoint then enforce their contract's access rule.
   */
  identitySecret?: InternalKeys;
}

const requestDuration = histogram('http_request_duration_seconds', 'HTTP request duration', ['service', 'method', 'route', 'status']);
/** Statuses that refuse what a request carried (a body, a file, a URL, a header): logged at info, every other 4xx at debug. */
const BAD_INPUT = new Set([400, 413, 414, 415, 422, 431]);
const unfitValues = counter('http_unfit_values_total', 'Requests refused because a value did not fit its database column', [
  'service',
  'sqlstate',
]);

/**
 * PostgreSQL data exceptions that only a request's own values cause (a number beyond the column's
 * range, NUL in text or jsonb, a malformed literal, a string longer than its column): 400, never 500.
 * The contracts refuse these before the database where they can; this catches what they miss.
 */
const UNFIT_VALUE_STATES: Record<string, string> = {
  '22003': 'a number is out of range',
  '22021': 'a text holds a character the database cannot store',
  '22P05': 'a text holds a character the database cannot store',
  '22P02': 'a value is not in the expected format',
  '22001': 'a text is longer than allowed',
  '22007': 'a date or time is not in the expected format',
  '22008': 'a date or time is out of range',
};

/** The SQLSTATE of a database error (drizzle wraps pg's and PGlite's errors in `cause`). */
function sqlState(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

export function errorBody(code: ErrorCode, message: string, details?: unknown) {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** A fastify app with the one error shape, zod validation, request ids, health, readiness and metrics. */
export function createApp(opts: CreateAppOptions): App {
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    logController: new LogController({ requestIdLogLabel: 'reqId', disableRequestLogging: true }),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<ZodTypeProvider>();

  // every route the app serves, for the contract test (a route the contract lacks fails it)
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    for (const m of Array.isArray(r.method) ? r.method : [r.method])
      if (m !== 'HEAD') routeTable.push({ method: m.toLowerCase(), url: r.url });
  });

  installReferences(app, opts.name);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('preValidation', refuseUnstorableInput(opts.name));

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  if (opts.identitySecret) {
    const secret = opts.identitySecret;
    app.decorateRequest('identity', undefined);
    app.addHook('onRequest', async (req) => {
      const token = req.headers[IDENTITY_HEADER];
      if (typeof token === 'string' && token) req.identity = await verifyIdentity(token, secret, opts.name);
    });
  }
  app.addHook('onResponse', async (req, reply) => {
    const route = req.routeOptions.url ?? 'unmatched';
    requestDuration.observe({ service: opts.name, method: req.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500)
      req.log.warn({ method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request failed');
    else if (BAD_INPUT.has(reply.statusCode))
      req.log.info(
        { method: req.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request refused: bad input',
      );
    else req.log.debug({ method: req.method, url: req.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send(errorBody('NOT_FOUND', `No route ${req.method} ${req.url.split('?')[0]}`));
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) {
      if (err.status >= 500) req.log.error({ err }, err.message);
      return reply.code(err.status).send(errorBody(err.code, err.message, err.details));
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const details = err.validation.map((v) => ({
        in: err.validationContext,
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message,
        // zod's issue code and limits, so a client words the problem in its user's language
        code: v.keyword,
        ...issueLimits(v.params),
      }));
      const first = details[0];
      return reply
        .code(400)
        .send(
          errorBody(
            'VALIDATION_FAILED',
            first ? `${first.in}${first.path ? '.' + first.path : ''}: ${first.message}` : 'Invalid request',
            details,
          ),
        );
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause.issues }, 'response does not match its contract');
      return reply.code(500).send(errorBody('INTERNAL', 'Response does not match the contract', { requestId: req.id }));
    }
    const state = sqlState(err);
    const unfit = state ? UNFIT_VALUE_STATES[state] : undefined;
    if (unfit) {
      unfitValues.inc({ service: opts.name, sqlstate: state! });
      req.log.warn({ err, sqlstate: state }, 'request value does not fit its column');
      return reply.code(400).send(errorBody('VALIDATION_FAILED', `Invalid request: ${unfit}`, { requestId: req.id }));
    }
    const e = err as { statusCode?: number; code?: string; message: string };
    const status = e.statusCode ?? 500;
    if (status === 413) return reply.code(413).send(errorBody('PAYLOAD_TOO_LARGE', e.message));
    if (status === 415) return reply.code(415).send(errorBody('UNSUPPORTED_MEDIA_TYPE', e.message));
    if (status === 429) return reply.code(429).send(errorBody('RATE_LIMITED', e.message));
    if (status >= 400 && status < 500) {
      return reply.code(status === 404 ? 404 : 400).send(errorBody(status === 404 ? 'NOT_FOUND' : 'VALIDATION_FAILED', e.message));
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody('INTERNAL', 'Internal error', { requestId: req.id }));
  });

  if (opts.ops !== false) {
    app.get('/healthz', async () => ({ status: 'ok', service: opts.name }));
    let wasReady = true; // logged on each change, not on every probe
    app.get('/readyz', async (req, reply) => {
      const verbose = Object.hasOwn((req.query ?? {}) as object, 'verbose');
      const checks: Record<string, string> = {};
      const details: Record<string, unknown> = {};
      let ok = true;
      await Promise.all(
        Object.entries(opts.readiness ?? {}).map(async ([name, check]) => {
          try {
            const report = await withTimeout(check(), 3000, name);
            if (report && report.detail !== undefined) details[name] = report.detail;
            if (report && !report.ready) {
              ok = false;
              checks[name] = report.reason ?? 'not ready';
            } else {
              checks[name] = 'ok';
            }
          } catch (err) {
            ok = false;
            checks[name] = err instanceof Error ? err.message : String(err);
          }
        }),
      );
      if (ok !== wasReady) {
        wasReady = ok;
        if (ok) req.log.info('ready again');
        else req.log.warn({ checks }, 'not ready');
      }
      return reply
        .code(ok ? 200 : 503)
        .send({ status: ok ? 'ready' : 'not_ready', service: opts.name, checks, ...(verbose ? { details } : {}) });
    });
    if (opts.metrics !== false) serveMetrics(app);
  }
  return app;
}

function serveMetrics(app: FastifyInstance): void {
  app.get('/metrics', async (_req, reply) => {
    reply.header('content-type', registry.contentType);
    return processMetrics();
  });
}

/** A listener that serves only GET /metrics: for a service whose API port is public (the gateway's METRICS_PORT). */
export function createMetricsApp(opts: { name: string; logger: Logger }): FastifyInstance {
  const app = Fastify({
    loggerInstance: opts.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  serveMetrics(app);
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: { method: string; url: string }[];
  }
}

export function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]);
}

/** The parts of a zod issue a client needs to word it (too_small's minimum, invalid_format's format, …), when present. */
function issueLimits(params: unknown): Record<string, unknown> {
  const p = (params ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of ['minimum', 'maximum', 'origin', 'format', 'expected', 'inclusive'] as const) {
    const v = p[key];
    if (typeof v === 'string' || typeof v === 'boolean') out[key] = v;
    else if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
    else if (typeof v === 'bigint') out[key] = Number(v);
  }
  if (Array.isArray(p.values)) out.values = p.values.filter((x) => typeof x === 'string' || typeof x === 'number').slice(0, 50);
  return out;
}
