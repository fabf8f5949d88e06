import { eq, sql } from 'drizzle-orm';
import { systemEndpoints, type ServerInfo, type ServerUpdate } from '@corridor/contracts';
import { AppError, cacheKeys, registerEndpoint, unavailable, type App, type Cache, type Logger, type Orm } from '@corridor/platform';
import { actorOf, audit } from '../audit/audit';
import { serverSettings } from '../db/schema';

const [
  ,
  getServer,
  updateServer,
  timezones,
  health,
  gc,
  cacheInfo,
  reboot,
  shareDevice,
  shareGroup,
  serverFile,
  streamPlaylist,
  streamSegment,
] = systemEndpoints;

/** What GET /server answers until an administrator changes it (Nairobi, the corridors in view). */
const DEFAULTS: ServerUpdate = {
  registration: false,
  readonly: false,
  map: 'osm',
  latitude: -1.2921,
  longitude: 36.8219,
  zoom: 6,
  attributes: {},
};
const ROW = 1;

/** Every IANA zone name this Node knows, UTC included (Intl lists only canonical zones). */
const zoneNames = (): string[] => [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])].sort();

/**
 * GET /server (public, as Traccar clients read it before signing in), PUT /server (administrators:
 * the settings row in identity.server_settings, with an audit entry) and GET /server/timezones.
 * The server's attributes (speedLimit and the other server-level event settings) are published to
 * the shared cache (cacheKeys.serverAttributes) after each change and by `publish()` at start.
 */
export function serverRoutes(
  app: App,
  opts: { db: Orm; cache: Cache; logger: Logger; version: string; openIdEnabled: boolean; openIdForce: boolean },
): { publish(): Promise<void> } {
  const { db } = opts;
  const info = ({ map, ...s }: ServerUpdate): ServerInfo => ({
    id: 1,
    version: opts.version,
    ...s,
    ...(map === null ? {} : { map }),
    openIdEnabled: opts.openIdEnabled,
    openIdForce: opts.openIdEnabled && opts.openIdForce,
  });
  const read = async (tx: Orm = db): Promise<ServerUpdate | undefined> => {
    try {
      return (await tx.select().from(serverSettings).where(eq(serverSettings.id, ROW)))[0]?.settings;
    } catch (err) {
      throw unavailable('PostgreSQL', err);
    }
  };
  const zones = zoneNames();
  /** A list of one object, the server's attributes, so readers use the PublishedList they use for every published list. */
  const publishAttributes = async (s: ServerUpdate | undefined): Promise<void> => {
    await opts.cache.set(cacheKeys.serverAttributes(), JSON.stringify([s?.attributes ?? {}]));
  };

  registerEndpoint(app, getServer, async () => info({ ...DEFAULTS, ...(await read()) }));
  registerEndpoint(app, updateServer, async (req) => {
    const next: ServerUpdate = { ...req.body };
    await db.transaction(async (tx) => {
      const before = await read(tx);
      await tx
        .insert(serverSettings)
        .values({ id: ROW, settings: next })
        .onConflictDoUpdate({ target: serverSettings.id, set: { settings: next, updatedAt: sql`now()` } });
      await audit.record(tx, actorOf(req), {
        action: 'server.update',
        entityType: 'server',
        entityId: ROW,
        before: before ?? DEFAULTS,
        after: next,
      });
    });
    await publishAttributes(next).catch((err: unknown) =>
      opts.logger.warn({ err }, 'server attributes not published to the cache; the next change or start publishes them'),
    );
    return info(next);
  });
  registerEndpoint(app, timezones, async () => zones);
  // Traccar's GET /health: a plain OK for uptime monitors, while the settings row can be read
  registerEndpoint(app, health, async (_req, reply) => {
    await read();
    return reply.type('text/plain').send('OK');
  });
  // Traccar's server maintenance calls: a collection when V8 exposes it, memory figures as text, no reboot
  registerEndpoint(app, gc, async (_req, reply) => {
    (globalThis as { gc?: () => void }).gc?.();
    return reply.code(200).send();
  });
  registerEndpoint(app, cacheInfo, async (_req, reply) => {
    const mem = process.memoryUsage();
    const lines = [
      `cache: ${opts.cache.kind}`,
      ...Object.entries(mem).map(([k, v]) => `${k}: ${v}`),
      `uptimeSeconds: ${Math.round(process.uptime())}`,
    ];
    return reply.type('text/plain').send(`${lines.join('\n')}\n`);
  });
  registerEndpoint(app, reboot, async () => {
    throw new AppError(
      'NOT_SUPPORTED',
      'Corridor does not restart through its API: its services are restarted by their orchestrator (kubectl rollout restart, docker compose restart)',
    );
  });
  for (const share of [shareDevice, shareGroup]) {
    registerEndpoint(app, share, async () => {
      throw new AppError(
        'FORBIDDEN',
        'Sharing is disabled: Corridor issues no anonymous location links; give the reader an account instead',
      );
    });
  }
  // Traccar's upload into its web override folder: refused (no override folder here); the body is drained unread
  void app.register(async (scope) => {
    scope.addContentTypeParser('*', (_req, payload, done) => {
      payload.resume();
      payload.on('end', () => done(null, undefined));
      payload.on('error', (err) => done(err, undefined));
    });
    registerEndpoint(scope as App, serverFile, async () => {
      throw new AppError(
        'NOT_SUPPORTED',
        'Corridor serves no web override folder: the console and its assets are built and deployed together, so files are not uploaded through the API',
      );
    });
  });
  for (const stream of [streamPlaylist, streamSegment]) {
    registerEndpoint(app, stream, async (req) => {
      throw new AppError('NOT_FOUND', `No video stream for device ${req.params.deviceId}: Corridor's trackers report no camera channels`);
    });
  }
  return { publish: async () => publishAttributes(await read()) };
}
