import { endpointsOf } from '@corridor/contracts';
import { createApp, type App, type Logger } from '@corridor/platform';
import type { GatewayConfig } from './config';
import { proxyRoutes } from './proxy/routes';
import { upstreamsFrom } from './proxy/upstreams';
import { systemRoutes } from './openapi/routes';
import { bootstrapAdmin } from './auth/bootstrap-admin';

export const VERSION = '0.1.0';
export const gatewayEndpoints = endpointsOf('gateway');

export interface GatewayDeps {
  logger: Logger;
  config: GatewayConfig;
}

export interface GatewayService {
  app: App;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The gateway: one API at /api in front of every service. */
export async function build(deps: GatewayDeps): Promise<GatewayService> {
  const app = createApp({ name: 'gateway', logger: deps.logger, readiness: {} });
  const admin = bootstrapAdmin(deps.config.ADMIN_EMAIL, deps.config.ADMIN_PASSWORD);
  app.decorateRequest('identity', undefined);
  app.addHook('onRequest', async (req) => {
    req.identity = admin(req.headers.authorization);
  });
  systemRoutes(app, { version: VERSION });
  await proxyRoutes(app, {
    upstreams: upstreamsFrom(deps.config),
    timeoutMs: deps.config.UPSTREAM_TIMEOUT_MS,
    identitySecret: deps.config.INTERNAL_TOKEN_SECRET,
  });
  return {
    app,
    async start() {},
    async close() {
      await app.close();
    },
  };
}
