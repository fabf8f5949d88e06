import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CLIENT, startProvider } from '@corridor/gateway/test/oidc-provider';
import { createLogger, parseConfig } from '@corridor/platform';
import { freePort } from '@corridor/platform/testing/free-port';
import { startTurns } from '@corridor/platform/testing/turns';
import { StackConfig } from '@corridor/tools/stack/config';
import { ensureConsoleBuilt } from '@corridor/tools/stack/console-build';
import { startStack, type RunningStack } from '@corridor/tools/stack/stack';
import { chromiumAvailable, CHROMIUM } from './chromium';
import { OPENID, type OpenIdStack } from './openid';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    chromium: boolean;
    /** The OpenID provider the stack signs in with (null against a stack of CONSOLE_E2E_URL, whose provider the tests do not know). */
    openId: OpenIdStack | null;
    /** Where a test's own trackers reach ingest: OsmAnd's HTTP address and a GT06 TCP port (null against a stack of CONSOLE_E2E_URL). */
    devicePorts: { osmand: string; gt06: number } | null;
    /** A file written once the demo's observatory history is built ('ok', or what failed); null when the tests did not start the stack. */
    observatoryHistory: string | null;
    /** Where a browser file takes its turn (e2e/support/browser-turn.ts): one browser file at a time on the stack. */
    browserTurns: number;
  }
}

/** Real parts' URLs are left out: the browser tests run the stack on its embedded defaults. */
const REAL_PARTS = ['DATABASE_URL', 'KAFKA_BROKERS', 'REDIS_URL', 'CLICKHOUSE_URL'];

let stack: RunningStack | undefined;
let dataDir: string | undefined;
let provider: Awaited<ReturnType<typeof startProvider>> | undefined;
let turns: Awaited<ReturnType<typeof startTurns>> | undefined;

/**
 * Once per run: build the console if it is stale, start the whole stack on ephemeral ports with a
 * fresh data folder and the demo scenario, and hand its URL to the test files (CONSOLE_E2E_URL: use
 * a stack already running with the demo instead; the tests then change that stack's data). Without Chromium
 * the browser tests are skipped, except in CI (CI=true), where that is a failure.
 */
export async function setup(project: TestProject): Promise<void> {
  const haveChromium = chromiumAvailable();
  if (!haveChromium && process.env.CI === 'true')
    throw new Error(`Chromium not found at ${CHROMIUM}: .ci/run installs Debian's chromium package (apt-get install -y chromium)`);
  project.provide('chromium', haveChromium);
  project.provide('openId', null);
  project.provide('devicePorts', null);
  project.provide('observatoryHistory', null);
  turns = await startTurns();
  project.provide('browserTurns', turns.port);
  if (!haveChromium) {
    project.provide('baseUrl', '');
    return;
  }
  await ensureConsoleBuilt((l) => process.stdout.write(`[console-browser] ${l}\n`));
  // while writing tests: a stack already running with the demo (`pnpm start`) instead of a new one
  if (process.env.CONSOLE_E2E_URL) {
    project.provide('baseUrl', process.env.CONSOLE_E2E_URL.replace(/\/$/, ''));
    // and its device ports, for the tests that drive trackers of their own: CONSOLE_E2E_OSMAND (http://host:port), CONSOLE_E2E_GT06_PORT
    const { CONSOLE_E2E_OSMAND: osmand, CONSOLE_E2E_GT06_PORT: gt06 } = process.env;
    if (osmand && gt06) project.provide('devicePorts', { osmand, gt06: Number(gt06) });
    return;
  }
  dataDir = mkdtempSync(join(tmpdir(), 'corridor-console-e2e-'));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !REAL_PARTS.includes(k)));
  const config = parseConfig(StackConfig, {
    ...env,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    // every port ephemeral: the services' and each device protocol's (0 = any free one; device ports 0 = not opened)
    ...Object.fromEntries(
      Object.keys(StackConfig.shape)
        .filter((k) => k.endsWith('_PORT'))
        .map((k) => [k, '0']),
    ),
    SIM_PROTOCOLS: 'osmand',
    SIM_TRUCKS: '12',
    SIM_INTERVAL_MS: '1000',
    // two weeks of the simulated trucks' past for the observatory's figures (the default four take longer to fold)
    DEMO_HISTORY_DAYS: '14',
    // a GT06 port for the tracker a test drives itself (commands, going offline), on this thread:
    // ingest threads would cost a core the two-core machine does not have
    GT06_PORT: String(await freePort()),
    INGEST_THREADS: '0',
  });
  // OpenID sign-in against a real provider (oidc-provider, as the gateway's own tests run it). Its
  // redirect address names the gateway by a host name (the browser of the OpenID test maps it to the
  // gateway's ephemeral port), as the address must be known before the gateway starts.
  provider = await startProvider(OPENID.redirectUri, OPENID.accounts);
  const gatewayEnv = {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    OIDC_REDIRECT_URI: OPENID.redirectUri,
    OIDC_SCOPE: 'openid email profile groups',
    OIDC_ROLE_MAP: OPENID.roleMap,
  };
  stack = await startStack(config, { loggerFor: (name) => createLogger(name, 'error'), gatewayEnv });
  // the observatory's figures are the demo's past, which the stack builds in the background. This
  // setup runs before any project's tests, and the browser files are spread among the others
  // (tools/test-sequencer.ts): the history is built while those run, and each browser file waits
  // for it first (history-ready.ts)
  const history = join(dataDir, 'observatory-history.done');
  void stack.observatoryHistory.then(
    () => writeFileSync(history, 'ok'),
    (err: unknown) => writeFileSync(history, `failed: ${err instanceof Error ? err.message : String(err)}`),
  );
  project.provide('observatoryHistory', history);
  project.provide('baseUrl', stack.urls.gateway);
  project.provide('devicePorts', { osmand: stack.urls.osmand, gt06: stack.devicePorts.gt06! });
  project.provide('openId', { host: OPENID.host, issuer: provider.issuer });
}

export async function teardown(): Promise<void> {
  await turns?.close();
  await stack?.close();
  await provider?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
