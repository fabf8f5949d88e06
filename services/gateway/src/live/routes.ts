import websocket from '@fastify/websocket';
import type { RouteOptions } from 'fastify';
import type { WebSocket } from 'ws';
import { socketEndpoints } from '@corridor/contracts';
import { AppError, registerEndpoint, type App } from '@corridor/platform';
import type { LiveFeed } from './live-feed';

const [socketEndpoint] = socketEndpoints;
export const socketEndpointId = socketEndpoint.id;

/**
 * Installs @fastify/websocket, preceded by an onRoute hook that gives GET /api/socket (registered
 * from its contract entry like every other route, so its access rule runs before the upgrade) the
 * WebSocket handler. Call it before adding any onRequest hook that may refuse a request: the
 * plugin's own onRequest hook must run first so that a refused upgrade's socket is closed.
 */
export async function installWebSocket(app: App, feed: LiveFeed, opts: { maxPayload: number }): Promise<void> {
  app.addHook('onRoute', (route: RouteOptions) => {
    if ((route.config as { endpointId?: string } | undefined)?.endpointId === socketEndpoint.id && route.method === 'GET') {
      type Req = { identity?: Parameters<LiveFeed['open']>[1]; query: unknown; log: App['log'] };
      (route as RouteOptions & { wsHandler?: unknown }).wsHandler = (socket: WebSocket, req: Req) => {
        feed.open(socket, req.identity!, { allEvents: (req.query as { allEvents?: boolean }).allEvents === true }).catch((err: unknown) => {
          req.log.error({ err }, 'live feed could not open');
          socket.close(1011, 'internal error');
        });
      };
    }
  });
  await app.register(websocket, { options: { maxPayload: opts.maxPayload } });
}

/** GET /api/socket: a plain GET without the upgrade answers 400. */
export function liveRoutes(app: App): void {
  registerEndpoint(app, socketEndpoint, async () => {
    throw new AppError('VALIDATION_FAILED', 'Connect with a WebSocket upgrade (Connection: Upgrade, Upgrade: websocket)');
  });
}
