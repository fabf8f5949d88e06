import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '@corridor/contracts';
import { countPositions, createLogger } from '@corridor/platform';
import { eventually } from '@corridor/platform/testing/eventually';
import { freePort } from '@corridor/platform/testing/free-port';
import { embeddedStackConfig } from './embedded-stack-config';
import { startStack, type RunningStack } from './stack';

/**
 * `pnpm start` as a new user runs it: device ports on port numbers (not 0), so ingest's device
 * ports run on a worker thread (INGEST_THREADS), with a simulated GT06 truck. The threads take
 * their settings from the stack's: a setting ingest has and the stack does not (METRICS_PORT once
 * reached the thread as the text "undefined", and `pnpm start` did not start) must not break them.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'corridor-threads-'));
const ADMIN = 'Basic ' + Buffer.from('admin@corridor.local:corridor-admin').toString('base64');
let stack: RunningStack | undefined;
let gt06: number;

beforeAll(async () => {
  gt06 = await freePort();
  const config = embeddedStackConfig({
    DATA_DIR: dataDir,
    GT06_PORT: String(gt06),
    METRICS_PORT: String(await freePort()),
    INGEST_THREADS: '1',
    SIM_PROTOCOLS: 'gt06',
    SIM_TRUCKS: '1',
    SIM_INTERVAL_MS: '500',
    DEMO: 'false',
  });
  stack = await startStack(config, { loggerFor: (name) => createLogger(name, 'error') });
}, 180_000);

afterAll(async () => {
  await stack?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('pnpm start with ingest threads', () => {
  it('serves the device port from a worker thread and stores what a GT06 truck sends to it', async () => {
    expect(stack!.devicePorts).toMatchObject({ gt06 });
    const devices = (await (await fetch(`${stack!.urls.gateway}/api/devices`, { headers: { authorization: ADMIN } })).json()) as Device[];
    const truck = devices.find((d) => d.uniqueId === stack!.simulated.uniqueIds[0])!;
    expect(truck).toBeDefined();
    await eventually(
      'a position of the simulated GT06 truck in the store',
      async () => (await countPositions(stack!.adapters.analytics)([truck.id])) > 0,
      90_000,
    );
  }, 120_000);
});
