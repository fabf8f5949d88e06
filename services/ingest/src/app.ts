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
import { DeviceRegistry } from './devices/device-registry';
import { PositionIntake } from './positions/intake';
import { ComputedAttributes } from './positions/computed-attributes';
import { startPositionStore } from './positions/position-store';
import { positionRoutes } from './positions/routes';
import { ingestReferenceChecks } from './positions/references';
import { buildOsmAndServer } from './http/osmand-server';
import { IngestConfig } from './config';
import { DevicePorts, type DevicePortSettings } from './device-ports';
import { CommandDispatcher } from './commands/command-dispatcher';
import { storeAndPublish } from './events/store-and-publish';

export interface IngestDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
  /** INTERNAL_TOKEN_SECRET (and _PREVIOUS during a rotation, see internalKeys): verifies the gateway's identity header. */
  identitySecret: InternalKeys;
  /** Device-port and intake settings (IngestConfig names); unset ones take their config defaults. */
  settings?: Partial<
    DevicePortSettings & Pick<IngestConfig, 'EVENT_MOTION_SPEED_THRESHOLD' | 'FIX_MAX_FUTURE_SECONDS' | 'FIX_FUTURE_SKEW_SECONDS'>
  >;
  /**
   * Test knobs: backoff while the bus is down, raw-frame archive flush interval, computed-attribute
   * reload period (default 5 s), frames of a connection handled as one batch (default 8; 1 = one at a time).
   */
  tuning?: {
    retry?: { initialMs: number; maxMs: number };
    archiveFlushMs?: number;
    computedAttributesReloadMs?: number;
    batchFrames?: number;
  };
  /**
   * How this instance shares its process (threads.ts): `reusePort` lets several threads listen on
   * the same device ports; `positionStore: false` leaves storing positions.v1 to another instance
   * (the one-process stack's main thread, next to chDB). Default: alone, with its position store.
   */
  threading?: { reusePort?: boolean; positionStore?: boolean };
}

export interface IngestService {
  app: App;
  osmand: App;
  registry: DeviceRegistry;
  intake: PositionIntake;
  /** The TCP/UDP device ports (listen with ports.listen or per server), the raw-frame archive, open connections. */
  ports: DevicePorts;
  /** commands.v1 → device connections. */
  commands: CommandDispatcher;
  /** Starts the consumers (device registry, position store, commands) and the raw-frame archive. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export const ingestEndpoints = endpointsOf('ingest');

/** Builds the ingest service from its adapters: the API app, the device-port servers and the consumers. */
export async function build(deps: IngestDeps): Promise<IngestService> {
  const bus = scopeBus(deps.bus); // its consumers are the ones /readyz watches
  deps = { ...deps, bus };
  const logger = deps.logger;
  await requireAnalyticsSchema(deps.analytics, logger);
  const registry = new DeviceRegistry(deps.bus, deps.cache, logger.child({ component: 'device-registry' }));
  const computed = new ComputedAttributes({
    cache: deps.cache,
    logger: logger.child({ component: 'computed-attributes' }),
    now: () => deps.clock.now().getTime(),
    ...(deps.tuning?.computedAttributesReloadMs !== undefined ? { reloadMs: deps.tuning.computedAttributesReloadMs } : {}),
  });
  const intake = new PositionIntake(
    { bus: deps.bus, registry, cache: deps.cache, clock: deps.clock, logger, computed },
    {
      motionThreshold: deps.settings?.EVENT_MOTION_SPEED_THRESHOLD,
      ...(deps.settings?.FIX_MAX_FUTURE_SECONDS !== undefined ? { maxFutureMs: deps.settings.FIX_MAX_FUTURE_SECONDS * 1000 } : {}),
      ...(deps.settings?.FIX_FUTURE_SKEW_SECONDS !== undefined ? { futureSkewMs: deps.settings.FIX_FUTURE_SKEW_SECONDS * 1000 } : {}),
    },
  );
  const app = createApp({
    metrics: false, // on a port of its own (METRICS_PORT, runService in main.ts)
    name: 'ingest',
    logger,
    identitySecret: deps.identitySecret,
    readiness: { bus: busReadiness(bus), analytics: () => deps.analytics.ping(), cache: () => deps.cache.ping() },
  });
  const ports = new DevicePorts({
    intake,
    registry,
    bus: deps.bus,
    cache: deps.cache,
    analytics: deps.analytics,
    clock: deps.clock,
    logger,
    settings: { ...IngestConfig.parse({}), ...deps.settings },
    ...(deps.tuning?.retry ? { retry: deps.tuning.retry } : {}),
    ...(deps.tuning?.archiveFlushMs ? { archiveFlushMs: deps.tuning.archiveFlushMs } : {}),
    ...(deps.tuning?.batchFrames ? { batchFrames: deps.tuning.batchFrames } : {}),
    ...(deps.threading?.reusePort ? { reusePort: true } : {}),
  });
  positionRoutes(app, intake, ports.gate);
  ingestReferenceChecks(app, registry);
  const osmand = await buildOsmAndServer({
    logger: logger.child({ protocol: 'osmand' }),
    intake,
    gate: ports.gate,
    fdBudget: ports.fdBudget,
    now: () => deps.clock.now(),
    identity: ports.identity,
    registry,
  });
  const commands = new CommandDispatcher({
    bus: deps.bus,
    cache: deps.cache,
    connections: ports.connections,
    clock: deps.clock,
    logger: logger.child({ component: 'commands' }),
    record: storeAndPublish({ analytics: deps.analytics, bus: deps.bus }),
  });
  const subs: Subscription[] = [];
  return {
    app,
    osmand,
    registry,
    intake,
    ports,
    commands,
    async start() {
      // consumer-group joins run side by side (each costs seconds on Kafka)
      await Promise.all([
        registry.start(),
        deps.threading?.positionStore === false
          ? Promise.resolve()
          : startPositionStore({
              bus: deps.bus,
              analytics: deps.analytics,
              cache: deps.cache,
              logger: logger.child({ component: 'position-store' }),
            }).then((s) => subs.push(s)),
        ports.start(),
        commands.start(),
      ]);
    },
    async close() {
      await ports.close();
      await Promise.allSettled([app.close(), osmand.close()]);
      await Promise.allSettled([...subs.map((s) => s.stop()), registry.stop(), commands.stop(), intake.settled()]);
    },
  };
}
