import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CLIENT, startProvider } from '@corridor/gateway/test/oidc-provider';
import { startTurns } from '@corridor/platform/testing/turns';
import { ensureConsoleBuilt } from '@corridor/tools/stack/console-build';
import { chromiumAvailable, CHROMIUM } from './chromium';
import { OPENID } from './openid';
import { startLaneStack, type StackLane } from './lane-stack';

declare module 'vitest' {
  export interface ProvidedContext {
    chromium: boolean;
    /** Each lane's stack (the browser file's own: browser-turn.ts `stackLane()`). */
    browserLanes: StackLane[];
    /** Where a browser file takes its turn on a lane (e2e/support/browser-turn.ts): one browser file at a time on each lane's stack. */
    browserTurns: number;
  }
}

/**
 * How many stacks the browser files run on, each file on one at a time (CONSOLE_E2E_LANES; by
 * default one per two cores: a lane is a stack and a Chromium, and on two cores two lanes did not
 * pay, docs/design-changes.md "Browser lanes"). The first lane's stack runs in this process, each
 * other lane's in a process of its own (lane-main.ts).
 */
const LANES = Number(process.env.CONSOLE_E2E_LANES ?? String(Math.max(1, Math.floor(availableParallelism() / 2))));

const closers: (() => Promise<void>)[] = [];

/** A lane's stack in a child process (lane-main.ts), resolved once it listens; closed at teardown. */
async function startLaneProcess(gatewayEnv: Record<string, string>, openId: StackLane['openId']): Promise<StackLane> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'lane-main.ts')], {
    cwd: join(import.meta.dirname, '..', '..', '..', '..'),
    env: { ...process.env, LANE_GATEWAY_ENV: JSON.stringify(gatewayEnv), LANE_OPENID: JSON.stringify(openId) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  closers.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.disconnect();
    await exited;
  });
  const [message] = (await Promise.race([
    once(child, 'message'),
    exited.then(([code, signal]) => {
      throw new Error(`a browser lane's stack (lane-main.ts) exited before it listened: ${signal ?? `code ${code}`}`);
    }),
  ])) as [{ lane: StackLane }];
  return message.lane;
}

/**
 * Once per run: build the console if it is stale, start each lane's stack on ephemeral ports with a
 * fresh data folder and the demo scenario, and hand the lanes to the test files (CONSOLE_E2E_URL: use
 * a stack already running with the demo instead, as the one lane; the tests then change that stack's data). Without Chromium
 * the browser tests are skipped, except in CI (CI=true), where that is a failure.
 */
export async function setup(project: TestProject): Promise<void> {
  const haveChromium = chromiumAvailable();
  if (!haveChromium && process.env.CI === 'true')
    throw new Error(`Chromium not found at ${CHROMIUM}: .ci/run installs Debian's chromium package (apt-get install -y chromium)`);
  if (!Number.isInteger(LANES) || LANES < 1)
    throw new Error(`CONSOLE_E2E_LANES must be a whole number of at least 1, not ${process.env.CONSOLE_E2E_LANES}`);
  project.provide('chromium', haveChromium);
  if (!haveChromium) {
    const turns = await startTurns();
    closers.push(turns.close);
    project.provide('browserTurns', turns.port);
    project.provide('browserLanes', [{ baseUrl: '', openId: null, devicePorts: null, observatoryHistory: null }]);
    return;
  }
  await ensureConsoleBuilt((l) => process.stdout.write(`[console-browser] ${l}\n`));
  // while writing tests: a stack already running with the demo (`pnpm start`) instead of a new one
  if (process.env.CONSOLE_E2E_URL) {
    // and its device ports, for the tests that drive trackers of their own: CONSOLE_E2E_OSMAND (http://host:port), CONSOLE_E2E_GT06_PORT
    const { CONSOLE_E2E_OSMAND: osmand, CONSOLE_E2E_GT06_PORT: gt06 } = process.env;
    const turns = await startTurns();
    closers.push(turns.close);
    project.provide('browserTurns', turns.port);
    project.provide('browserLanes', [
      {
        baseUrl: process.env.CONSOLE_E2E_URL.replace(/\/$/, ''),
        openId: null,
        devicePorts: osmand && gt06 ? { osmand, gt06: Number(gt06) } : null,
        observatoryHistory: null,
      },
    ]);
    return;
  }
  // OpenID sign-in against a real provider (oidc-provider, as the gateway's own tests run it), one
  // for every lane. Its redirect address names the gateway by a host name (the browser of the OpenID
  // test maps it to its lane's gateway port), as the address must be known before a gateway starts.
  const provider = await startProvider(OPENID.redirectUri, OPENID.accounts);
  closers.push(() => provider.close());
  const gatewayEnv = {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    OIDC_REDIRECT_URI: OPENID.redirectUri,
    OIDC_SCOPE: 'openid email profile groups',
    OIDC_ROLE_MAP: OPENID.roleMap,
  };
  const openId = { host: OPENID.host, issuer: provider.issuer };
  // the lanes' stacks start side by side: this process's, and the others' in processes of their own
  const lanes = await Promise.all([
    startLaneStack(gatewayEnv, openId).then((s) => (closers.push(s.close), s.lane)),
    ...Array.from({ length: LANES - 1 }, () => startLaneProcess(gatewayEnv, openId)),
  ]);
  const turns = await startTurns(lanes.length);
  closers.push(turns.close);
  project.provide('browserTurns', turns.port);
  project.provide('browserLanes', lanes);
}

export async function teardown(): Promise<void> {
  // the turns first, then the stacks, then the provider: the reverse of their start
  for (const close of closers.splice(0).reverse()) await close();
}
