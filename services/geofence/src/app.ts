import { join } from 'node:path';
import { endpointsOf } from '@corridor/contracts';
import {
  createApp,
  requireAnalyticsSchema,
  type Adapters,
  type App,
  type InternalKeys,
  type Logger,
  type Subscription,
} from '@corridor/platform';
import { busReadiness, packageDir, scopeBus, SettingLayers } from '@corridor/platform';
import { auditRoutes } from './audit/routes';
import { CalendarGate } from './calendars/calendar-gate';
import { DeviceDirectory } from './evaluator/device-directory';
import { eventWriter } from './evaluator/event-writer';
import { FenceCatalog } from './evaluator/fence-catalog';
import { FenceSync } from './evaluator/fence-sync';
import { startPositionConsumer } from './evaluator/position-consumer';
import { PositionEvaluator } from './evaluator/position-evaluator';
import { geofencesRepository } from './geofences/repository';
import { geofencePermissions } from './geofences/permission-links';
import { geofenceRoutes } from './geofences/routes';
import { geofenceReferenceChecks } from './geofences/references';
import { geofencesService, type GeofencesService } from './geofences/service';
import { insideRoutes } from './inside/routes';
import { seedFences } from './seed/seed';
import { statsRoutes } from './stats/routes';
import { backfillObservatory, type BackfillOptions } from './observatory/backfill';
import { factWriter } from './observatory/fact-writer';
import { ObservatoryTracker } from './observatory/observatory-tracker';
import { ObservatoryRollup } from './observatory/rollup';

export interface GeofenceDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
  /** INTERNAL_TOKEN_SECRET (and _PREVIOUS during a rotation, see internalKeys): verifies the gateway's identity header. */
  identitySecret: InternalKeys;
  /** How often the lists other services publish (calendars, groups, server attributes) are re-read (ms; default 5000). */
  calendarReloadMs?: number;
}

export interface GeofenceService {
  app: App;
  geofences: GeofencesService;
  catalog: FenceCatalog;
  calendars: CalendarGate;
  evaluator: PositionEvaluator;
  /** The corridor observatory's tracker (a consumer of positions.v1) and its backfill from stored positions. */
  observatory: {
    tracker: ObservatoryTracker;
    /** Keeps the daily indicators the API reads current with the facts written. */
    rollup: ObservatoryRollup;
    backfill(opts: BackfillOptions): Promise<{ devices: number; fixes: number; facts: number }>;
  };
  /** Inserts the seed fences that are missing (by seed key) and publishes them; returns how many. */
  seed(): Promise<number>;
  /** Seeds an empty table, loads the fences, republishes their definitions, starts the consumers. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const geofenceEndpoints = endpointsOf('geofence');
export const migrationsFolder = join(packageDir(import.meta.url), 'drizzle');

/** Builds the geofence service from its adapters: migrations, the API and the evaluator. */
export async function build(deps: GeofenceDeps): Promise<GeofenceService> {
  const bus = scopeBus(deps.bus); // its consumers are the ones /readyz watches
  deps = { ...deps, bus };
  const { logger } = deps;
  await requireAnalyticsSchema(deps.analytics, logger);
  await deps.db.migrate(migrationsFolder, 'geofence');
  const app = createApp({
    metrics: false, // on a port of its own (METRICS_PORT, runService in main.ts)
    name: 'geofence',
    logger,
    identitySecret: deps.identitySecret,
    readiness: { db: () => deps.db.ping(), bus: busReadiness(bus), cache: () => deps.cache.ping(), analytics: () => deps.analytics.ping() },
  });
  const orm = deps.db.orm;
  const repo = geofencesRepository(orm);
  const catalog = new FenceCatalog(logger.child({ component: 'fence-catalog' }));
  const sync = new FenceSync(repo, catalog, deps.bus, logger.child({ component: 'fence-sync' }));
  const directory = new DeviceDirectory(deps.bus, deps.cache, logger.child({ component: 'device-directory' }));
  const geofences = geofencesService({
    orm,
    repo,
    bus: deps.bus,
    cache: deps.cache,
    logger: logger.child({ module: 'geofences' }),
    onChange: (ids) => sync.refresh(ids),
  });
  const calendars = new CalendarGate({
    cache: deps.cache,
    logger: logger.child({ component: 'calendars' }),
    reloadMs: deps.calendarReloadMs,
    now: () => deps.clock.now().getTime(),
  });
  const settings = new SettingLayers({
    cache: deps.cache,
    logger: logger.child({ component: 'settings' }),
    reloadMs: deps.calendarReloadMs ?? 5000,
    now: () => deps.clock.now().getTime(),
  });
  const evaluator = new PositionEvaluator({
    catalog,
    calendars,
    directory,
    settings,
    cache: deps.cache,
    clock: deps.clock,
    logger: logger.child({ component: 'evaluator' }),
    write: eventWriter({ analytics: deps.analytics, db: orm, bus: deps.bus }),
  });
  const rollup = new ObservatoryRollup({ analytics: deps.analytics, logger: logger.child({ component: 'observatory-rollup' }) });
  const storeFacts = factWriter(deps.analytics);
  const writeFacts: typeof storeFacts = async (facts, companyOf) => {
    await storeFacts(facts, companyOf);
    rollup.mark(facts);
  };
  const tracker = new ObservatoryTracker({
    catalog,
    directory,
    cache: deps.cache,
    bus: deps.bus,
    write: writeFacts,
    clock: deps.clock,
    logger: logger.child({ component: 'observatory' }),
  });
  const permissions = geofencePermissions({
    orm,
    repo,
    announce: (ids) => geofences.announce(ids),
    ownerCompany: async (p) => {
      if (p.deviceId !== undefined) return directory.companyOf(p.deviceId);
      await settings.refresh();
      return settings.groupLine(p.groupId ?? null)[0]?.companyId;
    },
  });
  geofenceRoutes(app, geofences, permissions);
  geofenceReferenceChecks(app, { orm, cache: deps.cache, directory });
  insideRoutes(app, { cache: deps.cache, clock: deps.clock, repo });
  statsRoutes(app, { analytics: deps.analytics, repo });
  auditRoutes(app, orm);

  const subs: Subscription[] = [];
  return {
    app,
    geofences,
    catalog,
    calendars,
    evaluator,
    observatory: {
      tracker,
      rollup,
      backfill: async (opts) => {
        const done = await backfillObservatory(
          {
            analytics: deps.analytics,
            directory,
            write: writeFacts,
            map: tracker.currentMap(),
            logger: logger.child({ component: 'observatory' }),
          },
          opts,
        );
        // its days' indicators recomputed before it answers: the figures are there when it returns
        await rollup.flush();
        return done;
      },
    },
    async seed() {
      const rows = await seedFences({ orm, repo, logger }, { onlyIfEmpty: false });
      if (rows.length) await geofences.announce(rows.map((r) => r.id));
      return rows.length;
    },
    async start() {
      await seedFences({ orm, repo, logger }, { onlyIfEmpty: true });
      const loaded = await sync.loadAll();
      try {
        await geofences.syncDefinitions();
      } catch (err) {
        logger.error({ err }, 'geofence definitions not republished');
      }
      // the catalog is loaded and device groups fall back to the cache, so positions need not wait for the other two
      const [positions] = await Promise.all([
        startPositionConsumer({ bus: deps.bus, logger: logger.child({ component: 'evaluator' }), evaluator }),
        tracker.start(),
        directory.start(),
        sync.start(),
      ]);
      subs.push(positions);
      logger.info({ fences: loaded }, 'geofence evaluator started');
    },
    async close() {
      await app.close();
      await Promise.allSettled([...subs.map((s) => s.stop()), tracker.stop(), directory.stop(), sync.stop()]);
      await rollup.close();
      subs.length = 0;
    },
  };
}
