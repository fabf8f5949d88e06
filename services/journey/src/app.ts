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
import { busReadiness, scopeBus } from '@corridor/platform';
import { auditRoutes } from './audit/routes';
import { migrateJourneySchema } from './db/migrate';
import { DeviceJourneys } from './evaluator/device-journeys';
import { HotState } from './evaluator/hot-state';
import { journeyKeys } from './evaluator/journey-keys';
import { outcomeStore } from './evaluator/outcome-store';
import { positionEvaluator, type PositionEvaluator } from './evaluator/position-evaluator';
import { RouteIndexes } from './evaluator/route-indexes';
import { journeySweeper, type JourneySweeper } from './evaluator/sweeper';
import { eventSink } from './events/event-sink';
import { flagsRepository } from './flags/repository';
import { flagsService } from './flags/service';
import { journeysRepository } from './journeys/repository';
import { journeyRoutes } from './journeys/routes';
import { journeyReferenceChecks } from './journeys/references';
import { journeysService, type JourneysService } from './journeys/service';
import { routesRepository } from './routes/repository';
import { routeRoutes } from './routes/routes';
import { routesService, type RoutesService } from './routes/service';
import { seedRoutes } from './seed/corridor-seeds';

export interface JourneyDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
  /** INTERNAL_TOKEN_SECRET (and _PREVIOUS during a rotation, see internalKeys): verifies the gateway's identity header. */
  identitySecret: InternalKeys;
}

export interface JourneyOptions {
  /** JOURNEY_SWEEP_INTERVAL_S in ms (default 30 s); 0 = no timer (call sweep.run() yourself). */
  sweepIntervalMs?: number;
  /** JOURNEY_EARLY_START_MINUTES in ms (default 2 h). */
  earlyStartMs?: number;
  /** JOURNEY_SEED_ROUTES: seed the corridor routes at start when there are none (default true). */
  seedRoutes?: boolean;
  /** How long a batch waits for device locks held by the sweep (default 5 s). */
  lockWaitMs?: number;
}

export interface JourneyService {
  app: App;
  routes: RoutesService;
  journeys: JourneysService;
  evaluator: PositionEvaluator;
  sweep: JourneySweeper;
  /** Seeds (if empty), starts the positions.v1 consumer and the sweep timer. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const journeyEndpoints = endpointsOf('journey');

/** Builds the journey service: schema migrations, routes / journeys / flags APIs, the evaluator and its sweep. */
export async function build(deps: JourneyDeps, options: JourneyOptions = {}): Promise<JourneyService> {
  const bus = scopeBus(deps.bus); // its consumers are the ones /readyz watches
  deps = { ...deps, bus };
  await requireAnalyticsSchema(deps.analytics, deps.logger);
  await migrateJourneySchema(deps.db);
  const app = createApp({
    metrics: false, // on a port of its own (METRICS_PORT, runService in main.ts)
    name: 'journey',
    logger: deps.logger,
    identitySecret: deps.identitySecret,
    readiness: { db: () => deps.db.ping(), bus: busReadiness(bus), cache: () => deps.cache.ping(), analytics: () => deps.analytics.ping() },
  });
  const orm = deps.db.orm;
  const log = (component: string) => deps.logger.child({ component });
  const routesRepo = routesRepository(orm);
  const journeysRepo = journeysRepository(orm);
  const flagsRepo = flagsRepository(orm);
  const events = eventSink({ analytics: deps.analytics, bus: deps.bus, logger: log('events') });

  const routes = routesService({ db: orm, repo: routesRepo, cache: deps.cache, logger: log('routes') });
  const journeys = journeysService({
    db: orm,
    journeys: journeysRepo,
    routes: routesRepo,
    flags: flagsRepo,
    analytics: deps.analytics,
    cache: deps.cache,
    events,
    clock: deps.clock,
    logger: log('journeys'),
  });
  const flags = flagsService({ db: orm, flags: flagsRepo, journeys: journeysRepo, events, clock: deps.clock });
  routeRoutes(app, routes);
  journeyRoutes(app, journeys, flags);
  journeyReferenceChecks(app, { orm, cache: deps.cache });
  auditRoutes(app, orm);

  const earlyStartMs = options.earlyStartMs ?? 2 * 3600_000;
  const deviceJourneys = new DeviceJourneys(journeysRepo, deps.cache);
  const routeIndexes = new RouteIndexes(routesRepo);
  const hot = new HotState(deps.cache);
  const store = outcomeStore({ db: orm, journeys: journeysRepo, flags: flagsRepo });
  const evaluator = positionEvaluator({
    bus: deps.bus,
    logger: log('evaluator'),
    deviceJourneys,
    routeIndexes,
    hot,
    store,
    events,
    earlyStartMs,
    lockWaitMs: options.lockWaitMs ?? 5000,
  });
  const sweep = journeySweeper({
    journeys: journeysRepo,
    deviceJourneys,
    routeIndexes,
    hot,
    store,
    events,
    clock: deps.clock,
    logger: log('sweep'),
    earlyStartMs,
    routesVersion: () => deps.cache.get(journeyKeys.routesVersion),
  });

  let consumer: Subscription | undefined;
  return {
    app,
    routes,
    journeys,
    evaluator,
    sweep,
    async start() {
      if (options.seedRoutes ?? true)
        await seedRoutes({ db: orm, repo: routesRepo, cache: deps.cache, logger: log('seed') }, { onlyIfEmpty: true });
      consumer = await evaluator.start();
      sweep.start(options.sweepIntervalMs ?? 30_000);
    },
    async close() {
      await app.close();
      await sweep.stop();
      await consumer?.stop();
    },
  };
}
