import { join } from 'node:path';
import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import { allEndpoints, endpointsOf } from '@corridor/contracts';
import {
  AppError,
  createApp,
  createGeocoder,
  createMetricsApp,
  internalKeys,
  type Adapters,
  type App,
  type Logger,
} from '@corridor/platform';
import { busReadiness, packageDir, scopeBus } from '@corridor/platform';
import { openIdSettings, type GatewayConfig } from './config';
import { auditRoutes } from './audit/routes';
import { authenticator } from './auth/authenticator';
import { consoleRoutes, defaultConsoleDir } from './console/routes';
import { ensureBootstrapAdmin } from './auth/bootstrap-admin';
import { identityHook } from './auth/identity-hook';
import { loginThrottle } from './auth/login-throttle';
import { passwordHasher } from './auth/password-hash';
import { sessionStore } from './auth/sessions';
import { tokenService, type TokenService } from './auth/tokens';
import { LiveFeed } from './live/live-feed';
import { installWebSocket, liveRoutes, socketEndpointId } from './live/routes';
import { openIdClient } from './openid/client';
import { openIdRoutes } from './openid/routes';
import { openIdService } from './openid/service';
import { systemRoutes } from './openapi/routes';
import { serverRoutes } from './server/routes';
import { geocodeRoutes } from './server/geocode-routes';
import { logNotifier, type Notifier } from './password/notifier';
import { mailNotifier } from './password/mail-notifier';
import { passwordRoutes } from './password/routes';
import { passwordService } from './password/service';
import { permissionsRepository } from './permissions/repository';
import { permissionRoutes } from './permissions/routes';
import { permissionsService } from './permissions/service';
import { forwardedLinksClient } from './permissions/forwarded-links';
import { clientIpResolver } from './protection/client-ip';
import { rateLimits } from './protection/rate-limit';
import { proxyRoutes } from './proxy/routes';
import { upstreamsFrom } from './proxy/upstreams';
import { impersonation } from './session/impersonation';
import { sessionRoutes } from './session/routes';
import { totpRepository } from './totp/repository';
import { totpRoutes } from './totp/routes';
import { totpService } from './totp/service';
import { usersRepository } from './users/repository';
import { userRoutes } from './users/routes';
import { usersService, type UsersService } from './users/service';
import { userDirectoryPublisher } from './users/directory';
import { gatewayReferenceChecks } from './users/references';

export const VERSION = '0.1.0';
export const gatewayEndpoints = endpointsOf('gateway');
export const migrationsFolder = join(packageDir(import.meta.url), 'drizzle');

export type GatewayDeps = Omit<Adapters, 'close'> & {
  logger: Logger;
  config: GatewayConfig;
  /** Delivers password-reset notices; default: the log (no mail transport yet). */
  notifier?: Notifier;
};

export interface GatewayService {
  app: App;
  /** GET /metrics only, for the METRICS_PORT listener (not the public API port). */
  metricsApp: FastifyInstance;
  users: UsersService;
  tokens: TokenService;
  liveFeed: LiveFeed;
  /** Starts the live feed's consumers. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The gateway: one API at /api in front of every service. It owns identity (users, sessions,
 * tokens, OpenID sign-in, passwords, permissions), checks every endpoint's access rule, protects
 * the API (rate limits, body limits, CORS, security headers, CSRF) and serves the live feed.
 */
export async function build(deps: GatewayDeps): Promise<GatewayService> {
  const { config, logger, db, cache } = deps;
  const bus = scopeBus(deps.bus); // its consumers are the ones /readyz watches
  const now = () => deps.clock.now();
  await db.migrate(migrationsFolder, 'gateway');
  const app = createApp({
    name: 'gateway',
    logger,
    bodyLimit: config.BODY_LIMIT_BYTES,
    readiness: { db: () => db.ping(), cache: () => cache.ping(), bus: busReadiness(bus) },
    metrics: false, // the API port is public: /metrics has a listener of its own (metricsApp, METRICS_PORT)
  });
  const metricsApp = createMetricsApp({ name: 'gateway', logger });

  const hasher = passwordHasher(config.PASSWORD_HASH_COST);
  const users = usersRepository(db.orm);
  const permissions = permissionsRepository(db.orm);
  const sessions = sessionStore(cache, config.SESSION_TTL_SECONDS, now);
  const tokens = tokenService({ db: db.orm, now, defaultDays: config.TOKEN_TTL_DAYS, maxDays: config.TOKEN_MAX_DAYS });
  const throttle = loginThrottle(
    cache,
    {
      maxPerAccount: config.LOGIN_MAX_FAILURES,
      maxPerIp: config.LOGIN_MAX_FAILURES_PER_IP,
      maxPerAccountAll: config.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      lockoutSeconds: config.LOGIN_LOCKOUT_SECONDS,
      delaySeconds: config.LOGIN_DELAY_SECONDS,
      newAddressDelaySeconds: config.LOGIN_NEW_ADDRESS_DELAY_SECONDS,
    },
    now,
  );
  const cookieSettings = { secure: config.COOKIE_SECURE, ttlSeconds: config.SESSION_TTL_SECONDS };
  const clientIp = clientIpResolver(config.TRUST_PROXY_HOPS);
  const totp = totpService({ db: db.orm, cache, users, repo: totpRepository(db.orm), hasher, throttle, now });
  const authn = authenticator({ users, tokens, sessions, throttle, hasher, cookie: cookieSettings, now, secondFactor: totp.check });
  await ensureBootstrapAdmin({ db: db.orm, users, hasher, logger }, { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD });

  // the live feed's WebSocket support first: its hooks must see every request, refused ones too
  const geocoder = createGeocoder(config, { logger: logger.child({ module: 'geocoder' }) });
  const liveFeed = new LiveFeed({
    bus,
    cache,
    permissions,
    logger: logger.child({ module: 'live' }),
    keepaliveMs: config.SOCKET_KEEPALIVE_MS,
    geocoder,
  });
  await installWebSocket(app, liveFeed, { maxPayload: 64 * 1024 });

  // protection: security headers, CORS for the console, cookies, forms, rate limits, identity
  await app.register(helmet, {
    global: true,
    crossOriginResourcePolicy: { policy: 'same-site' },
    contentSecurityPolicy: {
      directives: {
        // the console's map: MapLibre's workers start from blob: URLs; a tile or style URL from the server settings may be elsewhere
        'worker-src': ["'self'", 'blob:'],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'connect-src': ["'self'", 'https:'],
        // served over plain http on a laptop (http://127.0.0.1:8082): upgrading its requests would break it
        'upgrade-insecure-requests': null,
      },
    },
  });
  await app.register(cors, {
    origin: config.CONSOLE_ORIGIN?.length ? config.CONSOLE_ORIGIN : false,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['content-type', 'authorization', 'x-requested-with', 'x-request-id'],
    exposedHeaders: ['x-request-id', 'retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'],
    maxAge: 600,
  });
  await app.register(cookie, { secret: config.COOKIE_SECRET });
  await app.register(formbody, { bodyLimit: config.BODY_LIMIT_BYTES });
  const limits = await rateLimits(app, {
    cache,
    clientIp,
    settings: { windowMs: config.RATE_LIMIT_WINDOW_MS, ipMax: config.RATE_LIMIT_IP_MAX, userMax: config.RATE_LIMIT_USER_MAX },
  });
  app.addHook('onRequest', limits.perIp);
  const origins = { allowed: config.CONSOLE_ORIGIN ?? [], trustForwardedHost: config.TRUST_PROXY_HOPS > 0 };
  identityHook(app, {
    authn,
    endpoints: allEndpoints,
    origins,
    clientIp,
    socketEndpointId,
    devicesOf: async (userId) => (await permissions.propertiesOf('userId', userId, ['deviceId'])).map((l) => l.propertyId),
  });
  app.addHook('onRequest', limits.perUser);
  app.addHook('onError', async (_req, reply, err) => {
    const retry =
      err instanceof AppError && err.code === 'RATE_LIMITED'
        ? (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds
        : undefined;
    if (retry) void reply.header('retry-after', String(retry));
    // a body refused for its size is not read to its end: close the connection rather than drain it
    if ((err instanceof AppError && err.code === 'PAYLOAD_TOO_LARGE') || (err as { statusCode?: number }).statusCode === 413)
      void reply.header('connection', 'close');
  });

  // the gateway's own endpoints
  const publishUsers = userDirectoryPublisher({ repo: users, cache, logger: logger.child({ module: 'users' }) });
  liveRoutes(app);
  const oidc = openIdSettings(config);
  systemRoutes(app, { version: VERSION });
  const server = serverRoutes(app, {
    db: db.orm,
    cache,
    logger: logger.child({ module: 'server' }),
    version: VERSION,
    openIdEnabled: Boolean(oidc),
    openIdForce: config.OIDC_FORCE,
  });
  geocodeRoutes(app, geocoder);
  sessionRoutes(app, {
    db: db.orm,
    authn,
    sessions,
    tokens,
    users,
    cookie: cookieSettings,
    clientIp,
    now,
    impersonation: impersonation({ db: db.orm, users, sessions, now }),
    origins,
  });
  openIdRoutes(app, {
    openid: oidc
      ? openIdService({
          db: db.orm,
          cache,
          users,
          now,
          client: openIdClient({ ...oidc, scope: config.OIDC_SCOPE }, logger.child({ module: 'openid' })),
          claims: { roleClaim: config.OIDC_ROLE_CLAIM, roleMap: config.OIDC_ROLE_MAP, companyClaim: config.OIDC_COMPANY_CLAIM },
          onUserChange: () => publishUsers(),
        })
      : undefined,
    sessions,
    cookie: cookieSettings,
    successRedirect: config.OIDC_SUCCESS_REDIRECT,
  });
  const mailer =
    !deps.notifier && config.SMTP_URL
      ? mailNotifier(config.SMTP_URL, config.SMTP_FROM, logger.child({ module: 'account-mail' }))
      : undefined;
  const notifier = deps.notifier ?? mailer ?? logNotifier(logger.child({ module: 'account-mail' }), config.NODE_ENV === 'production');
  const usersSvc = usersService({
    db: db.orm,
    repo: users,
    permissions,
    hasher,
    sessions,
    tokens,
    throttle,
    onChange: publishUsers,
    notifier,
    now,
  });
  gatewayReferenceChecks(app, {
    users,
    cache,
    devices: liveFeed.directory,
    geofenceUrl: config.GEOFENCE_URL,
    opsApiUrl: config.OPS_API_URL,
    keys: internalKeys(config),
  });
  userRoutes(app, usersSvc, clientIp);
  totpRoutes(app, totp, clientIp);
  passwordRoutes(
    app,
    passwordService({
      db: db.orm,
      cache,
      users,
      hasher,
      sessions,
      tokens,
      throttle,
      logger,
      now,
      notifier,
      ttlSeconds: config.PASSWORD_RESET_TTL_SECONDS,
      resetUrl: config.PASSWORD_RESET_URL,
    }),
  );
  const upstreams = upstreamsFrom(config);
  const opsApi = { baseUrl: () => upstreams['ops-api'], keys: internalKeys(config) };
  permissionRoutes(
    app,
    permissionsService({
      db: db.orm,
      repo: permissions,
      users,
      forwarded: forwardedLinksClient({ 'ops-api': opsApi, geofence: { baseUrl: () => upstreams.geofence, keys: opsApi.keys } }),
    }),
  );
  auditRoutes(app, db.orm, opsApi);

  // the web console at / (everything outside /api)
  await consoleRoutes(app, { dir: config.CONSOLE_DIR ?? defaultConsoleDir() });

  // everything else goes to its service
  await proxyRoutes(app, {
    upstreams,
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    identitySecret: internalKeys(config),
    bodyLimit: config.PROXY_BODY_LIMIT_BYTES,
    otherBodyLimit: config.BODY_LIMIT_BYTES,
  });

  return {
    app,
    metricsApp,
    users: usersSvc,
    tokens,
    liveFeed,
    async start() {
      await publishUsers();
      await server.publish().catch((err: unknown) => logger.warn({ err }, 'server attributes not published to the cache at start'));
      await liveFeed.start();
      const pruned = await tokens.prune();
      if (pruned) logger.info({ pruned }, 'expired tokens removed');
    },
    async close() {
      await liveFeed.stop();
      await app.close();
      await metricsApp.close();
      mailer?.close();
    },
  };
}
