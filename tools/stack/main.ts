import { build as buildGateway, GatewayConfig } from '@corridor/gateway';
import { build as buildIngest } from '@corridor/ingest';
import { build as buildJourney } from '@corridor/journey';
import { build as buildGeofence } from '@corridor/geofence';
import { build as buildOpsApi } from '@corridor/ops-api';
import { createAdapters, createLogger, internalKeys, parseConfig, runService } from '@corridor/platform';
import { simDeviceIds, startSimulator, type SimProtocol } from '../sim/simulator';
import { StackConfig } from './config';
import { registerSimDevices } from './sim-devices';

/**
 * `pnpm start`: the whole platform in one Node process on its embedded defaults (in-process bus,
 * PGlite and chDB under DATA_DIR, in-memory cache) — or on real parts where URLs are set — with
 * the simulator feeding it trucks over OsmAnd HTTP.
 */
const config = parseConfig(StackConfig);
const say = (line: string): void => {
  process.stdout.write(line + '\n');
};
const logger = createLogger('stack', config.LOG_LEVEL);

await runService('stack', logger, async () => {
  const started = Date.now();
  const adapters = await createAdapters(config, logger, { dataDir: config.DATA_DIR });
  const common = { ...adapters, identitySecret: internalKeys(config) };
  const ops = await buildOpsApi({ ...common, logger: createLogger('ops-api', config.LOG_LEVEL) });
  const ingest = await buildIngest({ ...common, logger: createLogger('ingest', config.LOG_LEVEL) });
  const journey = await buildJourney({ ...common, logger: createLogger('journey', config.LOG_LEVEL) });
  const geofence = await buildGeofence({ ...common, logger: createLogger('geofence', config.LOG_LEVEL) });
  const base = `http://${config.HOST}`;
  const gatewayConfig = parseConfig(GatewayConfig, {
    ...process.env,
    INGEST_URL: `${base}:${config.INGEST_PORT}`,
    JOURNEY_URL: `${base}:${config.JOURNEY_PORT}`,
    GEOFENCE_URL: `${base}:${config.GEOFENCE_PORT}`,
    OPS_API_URL: `${base}:${config.OPS_API_PORT}`,
    ADMIN_EMAIL: config.ADMIN_EMAIL,
    ADMIN_PASSWORD: config.ADMIN_PASSWORD,
    INTERNAL_TOKEN_SECRET: config.INTERNAL_TOKEN_SECRET,
  });
  const gateway = await buildGateway({ ...adapters, logger: createLogger('gateway', config.LOG_LEVEL), config: gatewayConfig });

  for (const svc of [ops, ingest, journey, geofence, gateway]) await svc.start();
  await ops.app.listen({ host: config.HOST, port: config.OPS_API_PORT });
  await ingest.app.listen({ host: config.HOST, port: config.INGEST_PORT });
  await ingest.osmand.listen({ host: config.HOST, port: config.OSMAND_PORT });
  const devicePorts = await ingest.ports.listen(config, config.HOST);
  await journey.app.listen({ host: config.HOST, port: config.JOURNEY_PORT });
  await geofence.app.listen({ host: config.HOST, port: config.GEOFENCE_PORT });
  await gateway.app.listen({ host: config.HOST, port: config.GATEWAY_PORT });

  const deviceIds = simDeviceIds(config.SIM_TRUCKS);
  const created = await registerSimDevices(ops, deviceIds);
  const sim = config.SIM_TRUCKS
    ? startSimulator({
        trucks: config.SIM_TRUCKS,
        ingestUrl: `${base}:${config.OSMAND_PORT}`,
        intervalMs: config.SIM_INTERVAL_MS,
        timeScale: config.SIM_TIME_SCALE,
        deviceIds,
        protocols: config.SIM_PROTOCOLS.split(',') as SimProtocol[],
        tcpHost: config.HOST,
        tcpPorts: { gt06: config.GT06_PORT, teltonika: config.TELTONIKA_PORT },
        log: (m) => logger.warn(m),
      })
    : undefined;

  const auth = `${config.ADMIN_EMAIL}:${config.ADMIN_PASSWORD}`;
  say('');
  say(`Corridor is running (${((Date.now() - started) / 1000).toFixed(1)} s): bus=${adapters.bus.kind} db=${adapters.db.kind} analytics=${adapters.analytics.kind} cache=${adapters.cache.kind}, data in ${config.DATA_DIR}/`);
  say(`  API (gateway)     ${base}:${config.GATEWAY_PORT}/api          OpenAPI: ${base}:${config.GATEWAY_PORT}/api/openapi.json`);
  say(`  ops-api           ${base}:${config.OPS_API_PORT}`);
  say(`  ingest API        ${base}:${config.INGEST_PORT}    OsmAnd devices: ${base}:${config.OSMAND_PORT}`);
  say(`  device ports      ${Object.entries(devicePorts).map(([p, n]) => `${p} ${n}`).join(', ')}`);
  say(`  journey           ${base}:${config.JOURNEY_PORT}`);
  say(`  geofence          ${base}:${config.GEOFENCE_PORT}`);
  say(`  simulator         ${config.SIM_TRUCKS} trucks (${created} registered now), one fix every ${config.SIM_INTERVAL_MS / 1000} s each over ${config.SIM_PROTOCOLS}`);
  say('');
  say(`  Live trucks:      curl -s -u '${auth}' ${base}:${config.GATEWAY_PORT}/api/positions`);
  say('');

  return {
    async close() {
      await sim?.stop();
      for (const svc of [gateway, ingest, journey, geofence, ops]) await svc.close().catch(() => undefined);
      await adapters.close();
    },
  };
});
