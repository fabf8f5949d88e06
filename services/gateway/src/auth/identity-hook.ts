import type { EndpointDef } from '@corridor/contracts';
import { AppError, type App } from '@corridor/platform';
import type { ClientIp } from '../protection/client-ip';
import type { Authenticated, Authenticator } from './authenticator';
import { changesState, checkCrossSite, type OriginPolicy } from './csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** How the caller authenticated (set by the gateway's identity hook). */
    auth?: Authenticated;
  }
}

/**
 * Resolves req.identity for every /api request (the proxy forwards it, registerEndpoint checks
 * the contract's access rule with it), enforces read-only token scopes and, for cookie sessions,
 * WebSocket upgrades and sign-in, the cross-site rule. An identity header sent by a client is never trusted here.
 */
export function identityHook(
  app: App,
  deps: {
    authn: Authenticator;
    endpoints: readonly EndpointDef[];
    origins: OriginPolicy;
    clientIp: ClientIp;
    socketEndpointId: string;
    /** The devices a user is linked to (a `device` account reports positions for these only). */
    devicesOf: (userId: number) => Promise<number[]>;
  },
): void {
  const byId = new Map(deps.endpoints.map((e) => [e.id, e]));
  app.decorateRequest('identity', undefined);
  app.decorateRequest('auth', undefined);
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api/')) return;
    const endpointId = (req.routeOptions.config as { endpointId?: string } | undefined)?.endpointId;
    const def = endpointId ? byId.get(endpointId) : undefined;
    const token = (req.query as { token?: unknown } | undefined)?.token;
    const queryToken = def?.id === deps.socketEndpointId && typeof token === 'string' ? token : undefined;
    const auth = await deps.authn.fromRequest(req, reply, { queryToken, ip: deps.clientIp(req) });
    checkCrossSite(req, def, deps.origins, auth?.via);
    if (!auth) return;
    req.auth = auth;
    req.identity = auth.identity.roles.includes('device')
      ? { ...auth.identity, deviceIds: await deps.devicesOf(auth.identity.userId) }
      : auth.identity;
    // what an administrator does as another user stays traceable to them in the logs
    if (auth.impersonator) req.log = req.log.child({ impersonatorId: auth.impersonator.id });
    if (auth.scope === 'read' && changesState(req.method, def)) throw new AppError('FORBIDDEN', 'This token is read-only (scope read)');
  });
}
