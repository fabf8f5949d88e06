import { createLogger, parseConfig, runService } from '@corridor/platform';
import { StackConfig } from './config';
import { ensureConsoleBuilt } from './console-build';
import { startStack } from './stack';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo/accounts';

/**
 * `pnpm start`: the whole platform in one Node process on its embedded defaults (in-process bus,
 * PGlite and chDB under DATA_DIR, in-memory cache) — or on real parts where URLs are set — with
 * the simulator feeding it trucks, and the web console at the gateway's `/`.
 */
const config = parseConfig(StackConfig);
const say = (line: string): void => {
  process.stdout.write(line + '\n');
};
const logger = createLogger('stack', config.LOG_LEVEL);

await runService('stack', logger, async () => {
  const started = Date.now();
  const consoleBuild = await ensureConsoleBuilt(say);
  const stack = await startStack(config);
  const { urls, adapters } = stack;
  const auth = `${config.ADMIN_EMAIL}:${config.ADMIN_PASSWORD}`;
  say('');
  say(
    `Corridor is running (${((Date.now() - started) / 1000).toFixed(1)} s): bus=${adapters.bus.kind} db=${adapters.db.kind} analytics=${adapters.analytics.kind} cache=${adapters.cache.kind}, data in ${config.DATA_DIR}/`,
  );
  say(`  Console           ${urls.gateway}/${consoleBuild.built ? `   (built now in ${consoleBuild.seconds.toFixed(1)} s)` : ''}`);
  say(`  API (gateway)     ${urls.gateway}/api          OpenAPI: ${urls.gateway}/api/openapi.json`);
  say(`  ops-api           ${urls.opsApi}`);
  say(`  ingest API        ${urls.ingest}    OsmAnd devices: ${urls.osmand}`);
  say(
    `  device ports      ${Object.entries(stack.devicePorts)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ')}`,
  );
  say(`  journey           ${urls.journey}`);
  say(`  geofence          ${urls.geofence}`);
  say(
    `  simulator         ${config.SIM_TRUCKS} trucks (${stack.simulated.registered} registered now), one fix every ${config.SIM_INTERVAL_MS / 1000} s each over ${config.SIM_PROTOCOLS}`,
  );
  say('');
  say(`  Sign in at ${urls.gateway}/ as ${config.ADMIN_EMAIL} / ${config.ADMIN_PASSWORD}`);
  if (stack.demo) {
    say(
      `  Demo (DEMO=false turns it off): ${stack.demo.journeys} journeys with scripted incidents; every demo account's password is ${DEMO_PASSWORD}`,
    );
    for (const [role, a] of Object.entries(DEMO_ACCOUNTS)) say(`    ${role.padEnd(11)} ${a.email.padEnd(26)} ${a.name}`);
    if (config.DEMO_HISTORY_DAYS > 0 && config.SIM_TRUCKS > 0) {
      say(
        `  Observatory:      the trucks' last ${config.DEMO_HISTORY_DAYS} days are being stored in the background (progress in the log; DEMO_HISTORY_DAYS=0 turns it off)`,
      );
    }
  }
  say(`  Live trucks:      curl -s -u '${auth}' ${urls.gateway}/api/positions`);
  say('');
  return stack;
});
