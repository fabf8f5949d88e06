import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@corridor/platform';
import { freePort } from '@corridor/platform/testing/free-port';
import { embeddedStackConfig } from '@corridor/tools/stack/embedded-stack-config';
import { startStack } from '@corridor/tools/stack/stack';
import type { OpenIdStack } from './openid';

/** What a browser file knows of the stack of its lane (browser-turn.ts `stackLane()`). */
export interface StackLane {
  baseUrl: string;
  /** The OpenID provider the stack signs in with (null against a stack of CONSOLE_E2E_URL, whose provider the tests do not know). */
  openId: OpenIdStack | null;
  /** Where a test's own trackers reach ingest: OsmAnd's HTTP address and a GT06 TCP port (null against a stack of CONSOLE_E2E_URL). */
  devicePorts: { osmand: string; gt06: number } | null;
  /** A file written once the demo's observatory history is built ('ok', or what failed); null when the tests did not start the stack. */
  observatoryHistory: string | null;
}

/**
 * One lane's stack in this process: the whole stack on ephemeral ports with a fresh data folder
 * and the demo scenario, signing in through the OpenID provider `gatewayEnv` names. The demo's
 * observatory history is built in the background; a file in the data folder says when it is done.
 */
export async function startLaneStack(
  gatewayEnv: Record<string, string>,
  openId: OpenIdStack,
): Promise<{ lane: StackLane; close(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'corridor-console-e2e-'));
  // the browser tests run the stack on its embedded parts, every port ephemeral (device ports not opened)
  const config = embeddedStackConfig({
    DATA_DIR: dataDir,
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
  const stack = await startStack(config, { loggerFor: (name) => createLogger(name, 'error'), gatewayEnv });
  // the observatory's figures are the demo's past, which the stack builds in the background while
  // the run's other files go on; each browser file waits for it first (history-ready.ts)
  const history = join(dataDir, 'observatory-history.done');
  void stack.observatoryHistory.then(
    () => writeFileSync(history, 'ok'),
    (err: unknown) => writeFileSync(history, `failed: ${err instanceof Error ? err.message : String(err)}`),
  );
  return {
    lane: {
      baseUrl: stack.urls.gateway,
      devicePorts: { osmand: stack.urls.osmand, gt06: stack.devicePorts.gt06! },
      openId,
      observatoryHistory: history,
    },
    async close() {
      await stack.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
