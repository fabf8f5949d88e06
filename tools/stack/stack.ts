import type { AddressInfo } from 'node:net';
import { build as buildGateway, GatewayConfig, type GatewayService } from '@corridor/gateway';
import { build as buildIngest, IngestConfig, startIngestThreads, type IngestService, type IngestThreads } from '@corridor/ingest';
import { build as buildJourney, type JourneyService } from '@corridor/journey';
import { build as buildGeofence } from '@corridor/geofence';
import { build as buildOpsApi, deviceStateSettingsFrom, type OpsApiService } from '@corridor/ops-api';
import {
  createAdapters,
  createGeocoder,
  createLogger,
  GeocoderEnv,
  internalKeys,
  loadChdb,
  parseConfig,
  type Adapters,
  type Logger,
} from '@corridor/platform';
import { startChdbHttp, type ChdbHttpServer } from '@corridor/platform/testing/chdb-http';
import { simDeviceIds, simFleetPlans, startSimulator, type SimProtocol, type SimulatorHandle } from '../sim/simulator';
import type { TruckPlan } from '../sim/truck';
import { StackConfig, statusTimeoutS } from './config';
import { registerSimDevices } from './sim-devices';
import { demoIncidents, placedForIncidents } from './demo/incidents';
import { runDemo, type DemoResult } from './demo/scenario';
import { continuingHistory, ensureObservatoryHistory } from './demo/observatory-history';

export interface RunningStack {
  adapters: Adapters;
  ops: OpsApiService;
  ingest: IngestService;
  journey: JourneyService;
  gateway: GatewayService;
  /** Where each part listens (actual ports: a port of 0 in the config means any free one). */
  urls: { gateway: string; opsApi: string; ingest: string; osmand: string; journey: string; geofence: string };
  devicePorts: Record<string, number>;
  /** The simulated trucks' unique ids, and how many were registered by this start. */
  simulated: { uniqueIds: string[]; registered: number };
  sim: SimulatorHandle | undefined;
  /** What the demo scenario made (undefined with DEMO=false). */
  demo: DemoResult | undefined;
  /**
   * The demo's past for the corridor observatory (DEMO_HISTORY_DAYS), built in the background after
   * the live trucks start: settles when stored and folded (null: none to build, already stored, or
   * stopped by close). Never rejects (a failure is logged).
   */
  observatoryHistory: Promise<{ fixes: number; facts: number } | null>;
  close(): Promise<void>;
}

const urlOf = (host: string, app: { server: { address(): AddressInfo | string | null } }): string =>
  `http://${host}:${(app.server.address() as AddressInfo).port}`;

/**
 * The whole platform in this process: every service built on one set of adapters (embedded unless
 * URLs are set), listening on the configured ports, the gateway in front, the simulated trucks
 * registered and driving. `pnpm start` and the console's browser tests both start it this way.
 */
export async function startStack(
  config: StackConfig,
  opts: { loggerFor?: (service: string) => Logger; consoleDir?: string; gatewayEnv?: Record<string, string> } = {},
): Promise<RunningStack> {
  const log = opts.loggerFor ?? ((name: string) => createLogger(name, config.LOG_LEVEL));
  const logger = log('stack');
  const adapters = await createAdapters(config, logger, { dataDir: config.DATA_DIR });
  const common = { ...adapters, identitySecret: internalKeys(config) };
  // ops-api checks the journey, route and geofence ids its requests carry with their services (their ports are known once they listen)
  const peers: { journey?: string; geofence?: string } = {};
  const ops = await buildOpsApi({
    ...common,
    logger: log('ops-api'),
    journeyUrl: () => peers.journey,
    geofenceUrl: () => peers.geofence,
    deviceState: deviceStateSettingsFrom({ ...config, DEVICE_STATUS_TIMEOUT_S: statusTimeoutS(config) }),
    // GEOCODER_URL and the other geocoder settings from the environment, as the gateway reads them
    geocoder: createGeocoder(parseConfig(GeocoderEnv), { logger: log('geocoder') }),
  });
  // ingest's device ports on worker threads (every core): this thread keeps the stores, the other
  // services and ingest's API, OsmAnd port and position store (docs/design-changes.md, "Every core")
  // (a device port is a *_PORT setting both configs hold: not the API, OsmAnd or metrics port)
  const devicePortVars = Object.keys(IngestConfig.shape).filter(
    (k) => /_PORT$/.test(k) && !['PORT', 'OSMAND_PORT', 'METRICS_PORT'].includes(k) && k in StackConfig.shape,
  ) as (keyof StackConfig & keyof IngestConfig)[];
  const threaded = config.INGEST_THREADS > 0 && devicePortVars.some((k) => Number(config[k]) > 0);
  const ingest = await buildIngest({ ...common, logger: log('ingest') });
  const journey = await buildJourney({ ...common, logger: log('journey') });
  const geofence = await buildGeofence({ ...common, logger: log('geofence') });
  for (const svc of [ops, ingest, journey, geofence]) await svc.start();
  await ops.app.listen({ host: config.HOST, port: config.OPS_API_PORT });
  await ingest.app.listen({ host: config.HOST, port: config.INGEST_PORT });
  await ingest.osmand.listen({ host: config.HOST, port: config.OSMAND_PORT });
  let devicePorts: Record<string, number>;
  let threads: IngestThreads | undefined;
  let chdbHttp: ChdbHttpServer | undefined;
  if (threaded) {
    const analytics = await sharedAnalytics(adapters);
    chdbHttp = analytics.http;
    // on Kafka and Redis the threads connect to them as any ingest instance does; an embedded bus or
    // cache lives in this thread and is lent to them (thread-bridge.ts)
    const embedded = adapters.bus.kind === 'memory' || adapters.cache.kind === 'memory';
    threads = await startIngestThreads({
      count: config.INGEST_THREADS,
      env: {
        ...process.env,
        ...Object.fromEntries(devicePortVars.map((k) => [k, String(config[k])])),
        HOST: config.HOST,
        LOG_LEVEL: config.LOG_LEVEL,
        INTERNAL_TOKEN_SECRET: config.INTERNAL_TOKEN_SECRET,
        CLICKHOUSE_URL: analytics.url,
        CLICKHOUSE_DATABASE: adapters.analytics.database,
      },
      logger,
      ...(embedded
        ? {
            bridged: {
              bus: adapters.bus,
              cache: adapters.cache,
              clickhouseUrl: analytics.url,
              clickhouseDatabase: adapters.analytics.database,
              ...(config.INGEST_THREAD_ACK === 'confirmed' ? { postedWindow: 0, mirrored: false } : {}),
            },
          }
        : {}),
    });
    devicePorts = threads.ports[0]!;
  } else {
    devicePorts = await ingest.ports.listen(config, config.HOST);
  }
  await journey.app.listen({ host: config.HOST, port: config.JOURNEY_PORT });
  await geofence.app.listen({ host: config.HOST, port: config.GEOFENCE_PORT });
  const h = config.HOST;
  const urls = {
    opsApi: urlOf(h, ops.app),
    ingest: urlOf(h, ingest.app),
    osmand: urlOf(h, ingest.osmand),
    journey: urlOf(h, journey.app),
    geofence: urlOf(h, geofence.app),
  };
  peers.journey = urls.journey;
  peers.geofence = urls.geofence;
  const gatewayConfig = parseConfig(GatewayConfig, {
    ...process.env,
    INGEST_URL: urls.ingest,
    JOURNEY_URL: urls.journey,
    GEOFENCE_URL: urls.geofence,
    OPS_API_URL: urls.opsApi,
    ADMIN_EMAIL: config.ADMIN_EMAIL,
    ADMIN_PASSWORD: config.ADMIN_PASSWORD,
    INTERNAL_TOKEN_SECRET: config.INTERNAL_TOKEN_SECRET,
    ...(opts.consoleDir ? { CONSOLE_DIR: opts.consoleDir } : {}),
    ...opts.gatewayEnv,
  });
  const gateway = await buildGateway({ ...adapters, logger: log('gateway'), config: gatewayConfig });
  await gateway.start();
  await gateway.app.listen({ host: h, port: config.GATEWAY_PORT });
  // the process's /metrics (ingest threads' added) on METRICS_PORT when one is given (a benchmark reads
  // where acks wait); none by default, so stacks side by side in tests never share a port
  if (process.env.METRICS_PORT) await gateway.metricsApp.listen({ host: h, port: gatewayConfig.METRICS_PORT });

  const uniqueIds = simDeviceIds(config.SIM_TRUCKS);
  const registered = await registerSimDevices(ops, uniqueIds);
  // the demo's trucks have a past (stored in the background below): each live truck goes on where its past leaves it
  const historyDays = config.DEMO ? config.DEMO_HISTORY_DAYS : 0;
  const startedAt = new Date();
  const live = (p: TruckPlan) => continuingHistory(p, startedAt, historyDays);
  // the demo's incident trucks where their past leaves them room for a round of their incident (demo/incidents.ts)
  const fleet = simFleetPlans(config.SIM_TRUCKS, uniqueIds);
  const planned = config.DEMO ? placedForIncidents(fleet, live) : fleet;
  const sim = config.SIM_TRUCKS
    ? startSimulator({
        trucks: config.SIM_TRUCKS,
        plans: planned.map(live),
        ingestUrl: urls.osmand,
        intervalMs: config.SIM_INTERVAL_MS,
        timeScale: config.SIM_TIME_SCALE,
        deviceIds: uniqueIds,
        protocols: config.SIM_PROTOCOLS.split(',') as SimProtocol[],
        tcpHost: h,
        tcpPorts: { gt06: devicePorts.gt06 ?? config.GT06_PORT, teltonika: devicePorts.teltonika ?? config.TELTONIKA_PORT },
        log: (m) => logger.warn(m),
        ...(config.DEMO ? { incidents: demoIncidents(uniqueIds) } : {}),
      })
    : undefined;
  const demo = config.DEMO
    ? await runDemo({
        gatewayUrl: urlOf(h, gateway.app),
        admin: { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD },
        plans: sim?.plans ?? [],
        log: (m) => logger.warn(m),
      })
    : undefined;
  const stopHistory = new AbortController();
  const observatoryHistory =
    sim && historyDays > 0
      ? (async () => {
          const devices = new Map((await ops.devices.list({ uniqueIds, limit: 10_000, offset: 0 })).map((d) => [d.uniqueId, d.id]));
          return ensureObservatoryHistory({
            analytics: adapters.analytics,
            plans: planned,
            devices,
            backfill: (o) => geofence.observatory.backfill(o),
            now: startedAt,
            days: config.DEMO_HISTORY_DAYS,
            signal: stopHistory.signal,
            log: (m) => logger.warn(m),
          });
        })().catch((err: unknown) => {
          if (!stopHistory.signal.aborted) logger.error({ err }, 'observatory history failed: the observatory shows the live trucks only');
          return null;
        })
      : Promise.resolve(null);

  return {
    adapters,
    ops,
    ingest,
    journey,
    gateway,
    devicePorts,
    sim,
    demo,
    observatoryHistory,
    urls: { ...urls, gateway: urlOf(h, gateway.app) },
    simulated: { uniqueIds, registered },
    async close() {
      stopHistory.abort();
      await observatoryHistory;
      await sim?.stop();
      await threads?.close();
      await chdbHttp?.close();
      for (const svc of [gateway, ingest, journey, geofence, ops]) await svc.close().catch(() => undefined);
      await adapters.close();
    },
  };
}

/**
 * The analytics store for ingest's threads: a ClickHouse server when CLICKHOUSE_URL is set, else this
 * process's chDB served over the ClickHouse HTTP interface on loopback (chDB binds its folder to
 * one process; the threads are of this process but have their own module instances).
 */
async function sharedAnalytics(adapters: Adapters): Promise<{ url: string; http?: ChdbHttpServer }> {
  if (adapters.analytics.kind === 'clickhouse') return { url: process.env.CLICKHOUSE_URL! };
  const connection = (await loadChdb()).openChdbConnection();
  if (!connection) throw new Error('chDB is not open in this process');
  const http = await startChdbHttp({ connection });
  return { url: http.url, http };
}
